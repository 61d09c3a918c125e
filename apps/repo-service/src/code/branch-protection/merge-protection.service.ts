import { Injectable } from '@nestjs/common';
import { accessAtLeast, type AccessLevel } from '@cairn/contracts';
import { changedPaths, isAncestor, mergeBase } from '@cairn/git';
import type { BranchProtectionRow } from './branch-protection.repository.js';
import { BranchProtectionService } from './branch-protection.service.js';
import { CommitStatusStore } from '../commit-statuses/commit-status-store.repository.js';
import { canUserMerge, protectedPaths } from './protection-rules.js';
import { requiredChecksPass, type StatusOfContext } from './required-checks.js';

@Injectable()
export class CommitStatusSource {
  constructor(private readonly store: CommitStatusStore) {}

  async latestStatuses(repoId: number, sha: string): Promise<StatusOfContext[]> {
    return (await this.store.combinedStatus(repoId, sha)).statuses;
  }
}

export interface ProposedMerge {
  repo: { id: number; ownerId: number };
  actorId: number;
  actorIsAdmin: boolean;
  access: AccessLevel;
  baseBranch: string;
  dir: string;
  base: string;
  head: string;
  forceMerge: boolean;
  /** The pull request's official approvals under the rule (reviews' `Approvals.approvalsCount`). */
  approvals: (rule: BranchProtectionRow) => Promise<number>;
}

/** Why a merge is refused by branch protection: `kind` tells the caller which Gitea answer it is. */
export interface MergeRefusal {
  /** `user`: not on the merge allow-list; `rule`: the rule's conditions are not met (Gitea's `ErrDisallowedToMerge`). */
  kind: 'user' | 'rule';
  message: string;
}

/** Gitea's `IsUserAllowedToMerge` and `CheckPullBranchProtections`: the allow-list, then the rule's conditions. */
@Injectable()
export class MergeProtection {
  constructor(
    private readonly protection: BranchProtectionService,
    private readonly statuses: CommitStatusSource,
  ) {}

  async refusal(m: ProposedMerge): Promise<MergeRefusal | null> {
    const rule = await this.protection.ruleFor(m.repo.id, m.baseBranch);
    if (!rule) return null;
    const who = await this.protection.member(m.repo, m.actorId, m.actorIsAdmin);
    if (!canUserMerge(rule, who)) return { kind: 'user', message: 'User not allowed to merge PR' };
    if (m.forceMerge && accessAtLeast(m.access, 'admin') && !rule.blockAdminMergeOverride) return null;

    const reason = await this.unmetCondition(rule, m);
    return reason ? { kind: 'rule', message: `not allowed to merge [reason: ${reason}]` } : null;
  }

  /** Gitea's `SignMerge` (`MERGES = approved`): approvals under the rule of the target branch; none without a rule. */
  async approvalsForSigning(repoId: number, branch: string, approvals: ProposedMerge['approvals']): Promise<number> {
    const rule = await this.protection.ruleFor(repoId, branch);
    return rule ? approvals(rule) : 0;
  }

  private async unmetCondition(rule: BranchProtectionRow, m: ProposedMerge): Promise<string | null> {
    if (rule.enableStatusCheck) {
      const statuses = await this.statuses.latestStatuses(m.repo.id, m.head);
      if (!requiredChecksPass(rule.statusCheckContexts, statuses)) return 'Not all required status checks successful';
    }
    if (rule.requiredApprovals > 0 && (await m.approvals(rule)) < rule.requiredApprovals) {
      return 'Does not have enough approvals';
    }
    if (rule.blockOnOutdatedBranch) {
      const upToDate = await isAncestor(m.dir, m.base, m.head).catch(() => false);
      if (!upToDate) return 'The head branch is behind the base branch';
    }
    if (rule.protectedFilePatterns.trim()) {
      const base = await mergeBase(m.dir, m.base, m.head);
      if (!base) throw new Error('git merge-base: the head shares no history with the base');
      if (protectedPaths(rule, await changedPaths(m.dir, base, m.head)).length) return 'Changed protected files';
    }
    return null;
  }
}
