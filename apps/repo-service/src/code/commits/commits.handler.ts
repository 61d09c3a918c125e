import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  CompareRequest, GetCommitRequest, ListCommitsRequest, RepoSubjects, type CommitDto, type CommitListReply, type CompareDto,
} from '@cairn/contracts';
import { CommitsService } from './commits.service.js';

/** Commit list (with since/until), single commits and the comparison of two refs. */
@Controller()
export class CommitsHandler {
  constructor(private readonly commits: CommitsService) {}

  @RpcHandler(RepoSubjects.commitList)
  list(@Payload() req: ListCommitsRequest): Promise<CommitListReply> {
    return this.commits.list(req);
  }

  @RpcHandler(RepoSubjects.commitGet)
  get(@Payload() req: GetCommitRequest): Promise<CommitDto> {
    return this.commits.get(req);
  }

  @RpcHandler(RepoSubjects.compare)
  compare(@Payload() req: CompareRequest): Promise<CompareDto> {
    return this.commits.compare(req);
  }
}
