import type { BranchProtectionRow } from './branch-protection.repository.js';
import { allUnprotected, canUserForcePush, canUserPush, protectedPaths, type Member } from './protection-rules.js';

/** What a write to a protected branch does, as far as the rule cares. */
export interface BranchWrite {
  branch: string;
  /** The branch is deleted. */
  deletes: boolean;
  /** The old head is not an ancestor of the new one. */
  forces: boolean;
  /** Paths changed between the old and the new head (empty for a new branch). */
  changedPaths: string[];
  /** The first new commit whose signature does not verify (only looked for when the rule requires signatures). */
  unverifiedCommit: string | null;
}

/**
 * Why a write to a branch under `rule` is refused, or null when it is allowed (Gitea's `preReceiveBranch`, in its
 * order: deletion, force push, unsigned commits, protected files, then the push allow-list — which a change touching
 * only unprotected files passes, and a pull request's merge replaces by the merge rules its caller checked).
 */
export function refusalOf(rule: BranchProtectionRow, write: BranchWrite, who: Member, how: { pullMerge?: boolean } = {}): string | null {
  const { branch } = write;
  if (write.deletes) return `branch ${branch} is protected from deletion`;
  if (write.forces && !canUserForcePush(rule, who)) return `branch ${branch} is protected from force push`;
  if (rule.requireSignedCommits && write.unverifiedCommit) {
    return `branch ${branch} is protected from unverified commit ${write.unverifiedCommit}`;
  }
  const touched = protectedPaths(rule, write.changedPaths);
  if (touched.length) return `branch ${branch} is protected from changing file ${touched[0]}`;
  if (!how.pullMerge && !canUserPush(rule, who) && !allUnprotected(rule, write.changedPaths)) {
    return `Not allowed to push to protected branch ${branch}`;
  }
  return null;
}
