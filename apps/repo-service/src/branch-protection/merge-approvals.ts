/**
 * SEAM for the reviews feature: the number of official approvals a pull request has (Gitea's
 * `GetGrantedApprovalsCount`: approving reviews, not stale and not dismissed, by official reviewers of the rule).
 * Cairn has no reviews yet, so this answers 0 and a rule with `required_approvals > 0` blocks every merge. Point it at
 * the reviews table (and `canBeOfficialReviewer` below) once reviews exist.
 */
export async function officialApprovalCount(_pullRequestId: number): Promise<number> {
  return 0;
}
