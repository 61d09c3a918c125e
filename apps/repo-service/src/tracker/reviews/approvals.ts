import { Injectable } from '@nestjs/common';
import { isStale } from '../issue-core/review.mapper.js';
import { ReviewsRepository } from '../issue-core/reviews.repository.js';

export interface ApprovalTarget {
  /** The pull request's issue id (reviews belong to the issue, as in Gitea). */
  id: number;
  pullRequest: { headSha: string };
}

/** Gitea's `GetGrantedApprovalsCount`: official, undismissed approvals; with `dismissStale` only the current head's. */
@Injectable()
export class Approvals {
  constructor(private readonly reviews: ReviewsRepository) {}

  async approvalsCount(pull: ApprovalTarget, opts: { dismissStale?: boolean } = {}): Promise<number> {
    const rows = await this.reviews.officialApprovals(pull.id);
    if (!opts.dismissStale) return rows.length;
    return rows.filter((r) => !isStale({ type: 'approve', commitId: r.commitId }, pull.pullRequest.headSha)).length;
  }
}
