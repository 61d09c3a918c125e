import { Injectable } from '@nestjs/common';
import { DomainError, isFullRefName, isObjectId } from '@cairn/contracts';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import { CommitVerifier } from '../../git-core/signatures/commit-verifier.js';
import { BranchProtectionRepository } from './branch-protection.repository.js';
import { BranchProtectionService } from './branch-protection.service.js';
import { describeBranchWrite } from './branch-writes.js';
import { ruleForBranch, type Member } from './protection-rules.js';
import { refusalOf } from './push-policy.js';
import { PushPolicy, type ProposedPush, type ProposedUpdate } from '../../git-core/transport/transport-ports.js';

export type { ProposedPush, ProposedUpdate };

/** A ref write repo-service makes itself on a user's behalf (branch and tag API, merges, updates, renames, releases). */
export interface ProposedRefWrite {
  repoId: number;
  actorId: number;
  dir: string;
  updates: ProposedUpdate[];
  pullMerge?: boolean;
}

const BRANCH_PREFIX = 'refs/heads/';

// The one branch-protection decision for pushes (pre-receive, HTTP and SSH) and every ref repo-service moves itself.
@Injectable()
export class PushProtection implements PushPolicy {
  constructor(
    private readonly rules: BranchProtectionRepository,
    private readonly protection: BranchProtectionService,
    private readonly verifier: CommitVerifier,
    private readonly identity: IdentityDirectory,
  ) {}

  async hasRules(repoId: number): Promise<boolean> {
    return (await this.rules.count(repoId)) > 0;
  }

  /** A write repo-service makes itself, decided as a push by the actor would be: refused with 403 and the reasons. */
  async assertAllowed(write: ProposedRefWrite): Promise<void> {
    const refusals = await this.refusals({
      repoId: write.repoId, pusherId: write.actorId, dir: write.dir, env: {}, updates: write.updates, pullMerge: write.pullMerge,
    });
    if (refusals.length) throw DomainError.forbidden(refusals.join('; '));
  }

  async refusals(push: ProposedPush): Promise<string[]> {
    const branchUpdates = push.updates.filter((u) => u.ref.startsWith(BRANCH_PREFIX));
    if (!branchUpdates.length) return [];
    const rules = await this.rules.list(push.repoId);
    if (!rules.length) return [];
    let member: Member | null = null;
    const out: string[] = [];
    for (const u of branchUpdates) {
      if (!isFullRefName(u.ref) || !isObjectId(u.old) || !isObjectId(u.new)) {
        out.push(`invalid ref update ${u.ref}`);
        continue;
      }
      const branch = u.ref.slice(BRANCH_PREFIX.length);
      const rule = ruleForBranch(rules, branch);
      if (!rule) continue;
      if (push.pusherId === null) {
        out.push(`Not allowed to push to protected branch ${branch}`);
        continue;
      }
      member ??= push.deployKeyId === undefined
        ? await this.memberOf(push.repoId, push.pusherId)
        : { userId: push.pusherId, teams: new Set<string>(), canWrite: true, deployKey: true };
      const write = await describeBranchWrite(push.dir, push.env, { branch, old: u.old, new: u.new }, rule, (c) =>
        this.verifier.verifiedCommits(c),
      );
      const refusal = refusalOf(rule, write, member, { pullMerge: push.pullMerge === true });
      if (refusal) out.push(refusal);
    }
    return out;
  }

  /** The pusher's standing; a site administrator has write access to every repository, as in Gitea. */
  private async memberOf(repoId: number, userId: number): Promise<Member> {
    const [ownerId, isAdmin] = await Promise.all([this.rules.ownerOf(repoId), this.identity.isSiteAdmin(userId)]);
    return this.protection.member({ id: repoId, ownerId: ownerId ?? 0 }, userId, isAdmin);
  }
}
