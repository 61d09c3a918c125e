import type { BranchProtectionRow } from './branch-protection.repository.js';

/**
 * SEAM for the reviews feature: the number of official approvals a pull request has under a rule (Gitea's
 * `GetGrantedApprovalsCount`: approving reviews by official reviewers, stale ones left out when the rule dismisses
 * them). Cairn has no reviews on this branch, so this answers 0 and a rule with `required_approvals > 0` blocks every
 * merge (except a forced one by a repository admin). The merge service passes this function to
 * `MergeProtection.refusal`; once reviews exist, pass `Approvals.approvalsCount(pull, { dismissStale:
 * rule.dismissStaleApprovals })` there instead (h/reviews, exported by IssueTrackerModule, so no module cycle).
 */
export async function officialApprovalCount(_pullRequestId: number, _rule: BranchProtectionRow): Promise<number> {
  return 0;
}
