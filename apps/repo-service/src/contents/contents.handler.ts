import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  GetContentsRequest, GetFileContentsRequest, GetRawRequest, RepoSubjects,
  type GetContentsReply, type GetFileContentsReply, type GetRawReply,
} from '@cairn/contracts';
import { ContentsService } from './contents.service.js';

/** Contents, batch file contents and raw blobs (the gateway has resolved the repository and checked read access). */
@Controller()
export class ContentsHandler {
  constructor(private readonly contents: ContentsService) {}

  @MessagePattern(RepoSubjects.contentsGet)
  get(@Payload() req: GetContentsRequest): Promise<GetContentsReply> {
    return this.contents.get(req);
  }

  @MessagePattern(RepoSubjects.fileContents)
  fileContents(@Payload() req: GetFileContentsRequest): Promise<GetFileContentsReply> {
    return this.contents.fileContents(req);
  }

  @MessagePattern(RepoSubjects.rawGet)
  raw(@Payload() req: GetRawRequest): Promise<GetRawReply> {
    return this.contents.raw(req);
  }
}
