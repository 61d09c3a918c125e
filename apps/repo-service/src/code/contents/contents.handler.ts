import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  GetContentsRequest, GetFileContentsRequest, GetRawRequest, RepoSubjects,
  type GetContentsReply, type GetFileContentsReply, type GetRawReply,
} from '@cairn/contracts';
import { ContentsService } from './contents.service.js';

/** Contents, batch file contents and raw blobs (the gateway has resolved the repository and checked read access). */
@Controller()
export class ContentsHandler {
  constructor(private readonly contents: ContentsService) {}

  @RpcHandler(RepoSubjects.contentsGet)
  get(@Payload() req: GetContentsRequest): Promise<GetContentsReply> {
    return this.contents.get(req);
  }

  @RpcHandler(RepoSubjects.fileContents)
  fileContents(@Payload() req: GetFileContentsRequest): Promise<GetFileContentsReply> {
    return this.contents.fileContents(req);
  }

  @RpcHandler(RepoSubjects.rawGet)
  raw(@Payload() req: GetRawRequest): Promise<GetRawReply> {
    return this.contents.raw(req);
  }
}
