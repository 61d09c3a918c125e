import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import { CommitSummariesRequest, RepoSubjects, type CommitSummaryDto } from '@cairn/contracts';
import { CommitSummariesService } from './commit-summaries.service.js';

/** Commit summaries by id (the web tree's last commit per entry). */
@Controller()
export class CommitSummariesHandler {
  constructor(private readonly commits: CommitSummariesService) {}

  @RpcHandler(RepoSubjects.commitSummaries)
  summaries(@Payload() req: CommitSummariesRequest): Promise<CommitSummaryDto[]> {
    return this.commits.summaries(req);
  }
}
