import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import { ChangeFilesRequest, RepoSubjects, type ChangeFilesReply } from '@cairn/contracts';
import { FileChangesService } from './file-changes.service.js';

/** The contents write API (create, update, rename, delete files in one commit). */
@Controller()
export class FileChangesHandler {
  constructor(private readonly files: FileChangesService) {}

  @RpcHandler(RepoSubjects.contentsChange)
  change(@Payload() req: ChangeFilesRequest): Promise<ChangeFilesReply> {
    return this.files.change(req);
  }
}
