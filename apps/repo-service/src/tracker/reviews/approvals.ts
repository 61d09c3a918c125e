import { Injectable } from '@nestjs/common';
import { isStale } from '../issue-core/review.mapper.js';
import { ReviewsRepository } from '../issue-core/reviews.repository.js';

/** The pull request whose approvals are counted: its issue id and current head. */
export interface ApprovalTarget {
  /** The pull request's issue id (reviews belong to the issue, as in Gitea). */
  id: number;
  pullRequest: { headSha: string };
}

/**
 * How many approvals a pull request has for merge rules (Gitea's `GetGrantedApprovalsCount`): official approvals (by
 * users with write access; only each reviewer's latest review stays official) that were not dismissed. With
 * `dismissStale` (branch protection's "dismiss stale approvals") only approvals of the current head count.
 */
@Injectable()
export class Approvals {
  constructor(private readonly reviews: ReviewsRepository) {}

  async approvalsCount(pull: ApprovalTarget, opts: { dismissStale?: boolean } = {}): Promise<number> {
    const rows = await this.reviews.officialApprovals(pull.id);
    if (!opts.dismissStale) return rows.length;
    return rows.filter((r) => !isStale({ type: 'approve', commitId: r.commitId }, pull.pullRequest.headSha)).length;
  }
}
