import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import { GetCommitDiffRequest, RepoSubjects, type CommitDiffReply } from '@cairn/contracts';
import { CommitDiffService } from './commit-diff.service.js';

/** One commit's patch (the web UI's commit page). */
@Controller()
export class CommitDiffHandler {
  constructor(private readonly diffs: CommitDiffService) {}

  @RpcHandler(RepoSubjects.commitDiff)
  diff(@Payload() req: GetCommitDiffRequest): Promise<CommitDiffReply> {
    return this.diffs.diff(req);
  }
}
