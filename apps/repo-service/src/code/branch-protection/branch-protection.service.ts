import { Injectable } from '@nestjs/common';
import type { Db } from '../../foundation/prisma/prisma.service.js';
import {
  DomainError, ErrorCode, accessAtLeast,
  type BranchProtectionDto, type BranchProtectionRequest, type CreateBranchProtectionRequest,
  type ActorDto, type AccessLevel, type EditBranchProtectionBody, type EditBranchProtectionRequest, type RepoScopedRequest,
} from '@cairn/contracts';
import { AccessService } from '../../foundation/access/access.service.js';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import { toBranchProtectionDto, userIdsOf } from './branch-protection.mapper.js';
import {
  BranchProtectionRepository, type BranchProtectionFields, type BranchProtectionRow,
} from './branch-protection.repository.js';
import { canUserMerge, canUserPush, ruleForBranch, type Member } from './protection-rules.js';
import type { BranchStanding } from './branch-protection.mapper.js';


/** Gitea's refusal of a rename of the default branch or of a branch with a rule of its own name. */
export const RENAME_NEEDS_ADMIN = 'User must be a repo or site admin to rename default or protected branches.';

@Injectable()
export class BranchProtectionService {
  constructor(
    private readonly rules: BranchProtectionRepository,
    private readonly identity: IdentityDirectory,
    private readonly access: AccessService,
  ) {}

  async list(req: RepoScopedRequest): Promise<BranchProtectionDto[]> {
    const rows = await this.rules.list(req.repo.id);
    const users = await this.identity.usersById(userIdsOf(rows));
    return rows.map((r) => toBranchProtectionDto(r, users));
  }

  async get(req: BranchProtectionRequest): Promise<BranchProtectionDto> {
    return this.render(await this.existing(req));
  }

  async create(req: CreateBranchProtectionRequest): Promise<BranchProtectionDto> {
    await this.requireWritable(req.repo.id);
    const body = req.body ?? {};
    const ruleName = (body.rule_name || body.branch_name || '').trim();
    if (!ruleName) throw DomainError.invalid('both rule_name and branch_name are empty');
    if (await this.rules.byName(req.repo.id, ruleName)) throw DomainError.forbidden('Branch protection already exist');
    const fields = await this.fieldsOf(req.repo.id, body, null);
    const row = await this.rules.create(req.repo.id, { ...fields, ruleName } as BranchProtectionFields).catch((err) => {
      if ((err as { code?: string }).code === 'P2002') throw DomainError.forbidden('Branch protection already exist');
      throw err;
    });
    return this.render(row);
  }

  async edit(req: EditBranchProtectionRequest): Promise<BranchProtectionDto> {
    await this.requireWritable(req.repo.id);
    const row = await this.existing(req);
    const fields = await this.fieldsOf(req.repo.id, req.body ?? {}, row);
    return this.render(await this.rules.update(row.id, fields));
  }

  async remove(req: BranchProtectionRequest): Promise<void> {
    await this.requireWritable(req.repo.id);
    await this.rules.remove((await this.existing(req)).id);
  }

  async ruleFor(repoId: number, branch: string): Promise<BranchProtectionRow | null> {
    return ruleForBranch(await this.rules.list(repoId), branch);
  }

  /** Gitea's `RenameBranch`: a branch with its own rule only by repo admins; a glob-protected one not at all (403). */
  async assertMayRename(repoId: number, branch: string, isRepoAdmin: boolean): Promise<void> {
    if (await this.rules.byName(repoId, branch)) {
      if (!isRepoAdmin) throw DomainError.forbidden(RENAME_NEEDS_ADMIN);
      return;
    }
    if (await this.ruleFor(repoId, branch)) throw DomainError.forbidden('Branch is protected by glob-based protection rules.');
  }

  /** A renamed branch keeps the rule named after it (inside the rename's transaction). */
  followRename(db: Db, repoId: number, from: string, to: string): Promise<void> {
    return this.rules.renameRule(repoId, from, to, db);
  }

  /** Gitea's `ToBranch`: protected branches only; without a signed-in viewer nobody may push or merge. */
  async standingFor(
    repo: { id: number; ownerId: number },
    actor: ActorDto | null,
    access: AccessLevel,
    branches: string[],
  ): Promise<Map<string, BranchStanding>> {
    const out = new Map<string, BranchStanding>();
    const rules = await this.rules.list(repo.id);
    if (!rules.length) return out;
    let who: Member | null = null;
    for (const name of branches) {
      const rule = ruleForBranch(rules, name);
      if (!rule) continue;
      if (actor && !who) who = { ...(await this.member(repo, actor.id, actor.isAdmin)), canWrite: accessAtLeast(access, 'write') };
      out.set(name, {
        ruleName: rule.ruleName,
        requiredApprovals: rule.requiredApprovals,
        enableStatusCheck: rule.enableStatusCheck,
        statusCheckContexts: rule.statusCheckContexts,
        userCanPush: who ? canUserPush(rule, who) : false,
        userCanMerge: who ? canUserMerge(rule, who) : false,
      });
    }
    return out;
  }

  async member(repo: { id: number; ownerId: number }, userId: number, isAdmin = false): Promise<Member> {
    // Pushing is the code unit's: a team may write issues without writing code.
    const level = await this.access.unitAccessById({ id: userId, isAdmin }, repo.id, 'code');
    const org = await this.identity.membership(repo.ownerId, userId).catch(() => null);
    return {
      userId,
      canWrite: accessAtLeast(level, 'write'),
      teams: new Set((org?.teams ?? []).map((t) => t.name.toLowerCase())),
    };
  }

  private async requireWritable(repoId: number): Promise<void> {
    if (await this.rules.isArchived(repoId)) throw new DomainError(ErrorCode.LOCKED, 'repo is archived');
  }

  private async existing(req: BranchProtectionRequest): Promise<BranchProtectionRow> {
    const row = await this.rules.byName(req.repo.id, req.name);
    if (!row) throw DomainError.notFound(`branch protection "${req.name}" not found`);
    return row;
  }

  private async render(row: BranchProtectionRow): Promise<BranchProtectionDto> {
    return toBranchProtectionDto(row, await this.identity.usersById(userIdsOf([row])));
  }

  /** Gitea's dependencies: no push means no allow-list, no force push means no force-push allow-list. */
  private async fieldsOf(
    repoId: number,
    b: EditBranchProtectionBody,
    current: BranchProtectionRow | null,
  ): Promise<Partial<BranchProtectionFields>> {
    const was = <K extends keyof BranchProtectionRow>(k: K, dflt: BranchProtectionRow[K]) => (current ? current[k] : dflt);
    const canPush = b.enable_push ?? was('canPush', false);
    const enableWhitelist = canPush && (b.enable_push_whitelist ?? was('enableWhitelist', false));
    const canForcePush = (current ? true : canPush) && (b.enable_force_push ?? was('canForcePush', false));
    const enableForcePushAllowlist = canForcePush && (b.enable_force_push_allowlist ?? was('enableForcePushAllowlist', false));
    const users = (names: string[] | undefined) => (names === undefined ? undefined : this.userIds(names));
    const [whitelist, forcePush, merge, approvals] = await Promise.all([
      users(b.push_whitelist_usernames), users(b.force_push_allowlist_usernames),
      users(b.merge_whitelist_usernames), users(b.approvals_whitelist_username),
    ]);
    // Teams only mean something in an org's repository. Names are not checked: identity-service answers team lookups
    // only to members, which a repository admin need not be.
    const inOrg = await this.rules.ownedByOrganization(repoId);
    const teams = (names: string[] | undefined) => (names === undefined ? undefined : inOrg ? names.map((n) => n.toLowerCase()) : []);
    const fields: Partial<BranchProtectionFields> = {
      priority: b.priority,
      canPush,
      enableWhitelist,
      whitelistDeployKeys: enableWhitelist && (b.push_whitelist_deploy_keys ?? was('whitelistDeployKeys', false)),
      canForcePush,
      enableForcePushAllowlist,
      forcePushAllowlistDeployKeys:
        enableForcePushAllowlist && (b.force_push_allowlist_deploy_keys ?? was('forcePushAllowlistDeployKeys', false)),
      whitelistUserIds: whitelist,
      whitelistTeams: teams(b.push_whitelist_teams),
      forcePushAllowlistUserIds: forcePush,
      forcePushAllowlistTeams: teams(b.force_push_allowlist_teams),
      enableMergeWhitelist: b.enable_merge_whitelist,
      mergeWhitelistUserIds: merge,
      mergeWhitelistTeams: teams(b.merge_whitelist_teams),
      enableStatusCheck: b.enable_status_check,
      statusCheckContexts: b.status_check_contexts,
      requiredApprovals:
        b.required_approvals === undefined || b.required_approvals < 0 ? undefined : b.required_approvals,
      enableApprovalsWhitelist: b.enable_approvals_whitelist,
      approvalsWhitelistUserIds: approvals,
      approvalsWhitelistTeams: teams(b.approvals_whitelist_teams),
      blockOnRejectedReviews: b.block_on_rejected_reviews,
      blockOnOfficialReviewRequests: b.block_on_official_review_requests,
      blockOnOutdatedBranch: b.block_on_outdated_branch,
      dismissStaleApprovals: b.dismiss_stale_approvals,
      ignoreStaleApprovals: b.ignore_stale_approvals,
      requireSignedCommits: b.require_signed_commits,
      protectedFilePatterns: b.protected_file_patterns,
      unprotectedFilePatterns: b.unprotected_file_patterns,
      blockAdminMergeOverride: b.block_admin_merge_override,
    };
    return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  }

  /** User ids by login; an unknown login is 422, as Gitea (`ErrUserNotExist`). */
  private async userIds(names: string[]): Promise<number[]> {
    const wanted = [...new Set(names.map((n) => n.trim()).filter(Boolean))];
    if (!wanted.length) return [];
    const found = await Promise.all(wanted.map((n) => this.identity.userByLogin(n)));
    return found.map((u, i) => {
      if (!u) throw DomainError.unprocessable(`user does not exist [name: ${wanted[i]}]`);
      return u.id;
    });
  }
}
