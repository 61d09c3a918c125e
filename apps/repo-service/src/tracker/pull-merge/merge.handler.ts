import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import { MergePullRequest, PullSubjects, UpdatePullRequest } from '@cairn/contracts';
import { MergeService } from './merge.service.js';

/** Merging a pull request and updating its head branch. */
@Controller()
export class MergeHandler {
  constructor(private readonly merges: MergeService) {}

  @RpcHandler(PullSubjects.merge)
  merge(@Payload() req: MergePullRequest): Promise<null> {
    return this.merges.merge(req);
  }

  @RpcHandler(PullSubjects.update)
  update(@Payload() req: UpdatePullRequest): Promise<null> {
    return this.merges.update(req);
  }
}
