import type { BranchProtectionRow } from './branch-protection.repository.js';
import { allUnprotected, canUserForcePush, canUserPush, protectedPaths, type Member } from './protection-rules.js';

export interface BranchWrite {
  branch: string;
  deletes: boolean;
  /** The old head is not an ancestor of the new one. */
  forces: boolean;
  changedPaths: string[];
  /** The first new commit whose signature does not verify (only looked for when the rule requires signatures). */
  unverifiedCommit: string | null;
}

/** Gitea's `preReceiveBranch` order: deletion, force push, unsigned commits, protected files, then the allow-list. */
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
