import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  DomainError, ErrorCode, HooksSubjects, placeholderUser, RepoEvents, checkRepoName, isValidBranchName,
  sanitizeTopic, toPaging, type ForkRepositoryRequest, type GetRepositoryByIdRequest, type ListForksRequest,
  type ActorDto, type CreateRepositoryRequest, type EditRepositoryRequest, type ListRepositoriesRequest, type TransferRepositoryRequest,
  type OrgMembershipReply, type OwnerDto, type Paginated, type Paging, type RepoScopedRequest, type RepositoryDto,
  type RepositoryEventData, type RepositoryForkedEventData, type RepositorySummaryDto, type SearchRepositoriesRequest, type UserDto, type VisibleRepositoriesRequest,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings, uniqueViolation, EventOutbox } from '@cairn/platform';
import { AccessService } from '../../foundation/access/access.service.js';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import { viewerScope } from '../../foundation/access/viewer-scope.js';
import { requireActor } from '../../foundation/access/require-actor.js';
import { REPO_SETTINGS, type RepoSettings } from '../../foundation/config/repo-settings.js';
import { PrismaService } from '../../foundation/prisma/prisma.service.js';
import { inTx, PRISMA_TX_LIMITS } from '../../foundation/prisma/tx.js';
import { CommitSigner } from '../merge/commit-signer.js';
import { RepoStorage } from '../storage/repo-storage.js';
import { AttachmentBlobs } from '../storage/attachment-blobs.js';
import { templateFiles } from '../templates/init-files.js';
import { TemplateCatalogue } from '../templates/template-catalogue.js';
import {
  RepositoriesRepository,
  type RepositoryChanges, type RepositoryFilter, type RepositoryOrder, type RepositoryRow,
} from './repositories.repository.js';
import {
  hostOf, toEventRepository, toRepositoryDto, toRepositorySummary, type RepoUrlSettings,
} from './repository.mapper.js';

const DUPLICATE = 'The repository with the same name already exists.';
const SEARCH_MODES = ['', 'source', 'fork', 'mirror', 'collaborative'];
const SEARCH_SORTS: RepositoryOrder[] = ['alpha', 'created', 'updated', 'size', 'id'];

/** Gitea's "Default" template. */
function defaultReadme(name: string, description: string): string {
  return `# ${name}\n\n${description}\n`;
}

function nameProblem(name: string): DomainError | null {
  const problem = checkRepoName(name);
  return problem ? DomainError.unprocessable(problem.message) : null;
}

/** Registered with `onDelete`, so modules above need no import cycle. */
export type RepositoryDeletionHook = (repoId: number, actor: ActorDto | null) => Promise<void>;

@Injectable()
export class RepositoriesService {
  private readonly logger = new Logger('RepositoriesService');
  private readonly urls: RepoUrlSettings;
  private readonly deletionHooks: RepositoryDeletionHook[] = [];

  constructor(
    private readonly prisma: PrismaService,
    private readonly repositories: RepositoriesRepository,
    private readonly storage: RepoStorage,
    private readonly attachments: AttachmentBlobs,
    private readonly outbox: EventOutbox,
    private readonly identity: IdentityDirectory,
    private readonly access: AccessService,
    private readonly rpc: RpcClient,
    private readonly signer: CommitSigner,
    private readonly templates: TemplateCatalogue,
    @Inject(COMMON_SETTINGS) common: CommonSettings,
    @Inject(REPO_SETTINGS) private readonly settings: RepoSettings,
  ) {
    this.urls = {
      rootUrl: common.rootUrl,
      sshUser: settings.sshUser,
      sshHost: settings.sshDomain || hostOf(common.rootUrl),
      sshPort: common.sshPort,
    };
  }


  async create(req: CreateRepositoryRequest): Promise<RepositoryDto> {
    const { actor, body } = req;
    const invalid = nameProblem(body.name);
    if (invalid) throw invalid;
    const branch = body.default_branch?.trim() || this.settings.defaultBranch;
    if (!isValidBranchName(branch)) throw DomainError.unprocessable(`invalid default branch name "${branch}"`);
    if (body.object_format_name === 'sha256') {
      throw DomainError.unprocessable('object format "sha256" is not supported');
    }

    const [owner, doers] = await Promise.all([this.creationOwner(req), this.identity.usersById([actor.id])]);
    const doer = doers.get(actor.id) ?? placeholderUser(actor.id, actor.login, this.urls.rootUrl);
    if (await this.repositories.existsByName(owner.id, body.name)) throw DomainError.alreadyExists(DUPLICATE);
    // An unknown template is a 422, with or without auto_init, before anything is created.
    const templateFilesToAdd = templateFiles(this.templates, body, {
      owner: owner.login,
      repo: body.name,
      year: String(new Date().getUTCFullYear()),
    });

    // Storage first (exclusive), then row and event in one transaction; a later failure removes the storage again.
    const location = { ownerName: owner.login, name: body.name };
    await this.storage.init(location, branch);
    let row: RepositoryRow;
    try {
      if (body.auto_init) {
        const signing = await this.signer.decide('initial-commit', {
          gitDir: this.storage.pathFor(location), actorId: actor.id, actor,
        });
        await this.storage.commitFiles(
          location,
          branch,
          [{ path: 'README.md', content: defaultReadme(body.name, body.description ?? '') }, ...templateFilesToAdd],
          'Initial commit',
          {
            name: doer.full_name || doer.login,
            email: doer.email || `${doer.login}@noreply.${hostOf(this.urls.rootUrl)}`,
          },
          signing,
        );
      }
      row = await inTx(this.prisma, async (tx) => {
        const created = await this.repositories.insert(tx, {
          ownerId: owner.id,
          ownerName: owner.login,
          ownerKind: owner.kind,
          name: body.name,
          description: body.description ?? '',
          isPrivate: body.private ?? false,
          isEmpty: !body.auto_init,
          isTemplate: body.template ?? false,
          defaultBranch: branch,
          trustModel: body.trust_model || 'default',
        }, this.firstWatcher(doer.id));
        const data: RepositoryEventData = {
          repository: toEventRepository(created, owner.user, this.urls),
          sender: doer,
        };
        await this.outbox.record(tx, RepoEvents.repositoryCreated, data);
        return created;
      }, PRISMA_TX_LIMITS);
    } catch (err) {
      await this.storage.remove(location).catch((e: Error) =>
        this.logger.error(`could not remove the storage of ${owner.login}/${body.name}: ${e.message}`),
      );
      if (uniqueViolation(err) !== null) throw DomainError.alreadyExists(DUPLICATE);
      throw err;
    }
    this.outbox.kick();
    await this.initHooks(row, owner.user);
    return toRepositoryDto(row, owner.user, 'owner', this.urls);
  }

  private async creationOwner(req: CreateRepositoryRequest): Promise<OwnerDto> {
    const { actor } = req;
    switch (req.target) {
      case 'self': {
        const owner = await this.identity.resolveOwner(actor.login);
        if (owner.kind !== 'user') throw DomainError.unprocessable('not allowed creating repository for organization');
        if (owner.id !== actor.id) throw DomainError.notFound(`user "${actor.login}" does not exist`);
        return owner;
      }
      case 'org': {
        if (!req.owner) throw DomainError.invalid('owner is required');
        const org = await this.identity.resolveOwner(req.owner);
        if (org.kind !== 'organization') throw DomainError.notFound(`organization "${req.owner}" does not exist`);
        if (actor.isAdmin) return org;
        const standing = await this.identity.membership(org.id, actor.id);
        if (!standing.isMember && !standing.isOwner && org.visibility === 'private') {
          throw DomainError.notFound(`organization "${req.owner}" does not exist`);
        }
        if (!standing.isOwner && !standing.teams.some((t) => t.canCreateOrgRepo)) {
          throw DomainError.forbidden('Given user is not allowed to create repository in organization.');
        }
        return org;
      }
      case 'user': {
        if (!actor.isAdmin) throw DomainError.forbidden('user should be the site admin');
        if (!req.owner) throw DomainError.invalid('owner is required');
        return this.identity.resolveOwner(req.owner);
      }
    }
  }

  /** Best effort: if hooks-service is down, the committed `repository.created` event lets it finish later. */
  private async initHooks(row: RepositoryRow, owner: UserDto): Promise<void> {
    try {
      await this.rpc.send(
        HooksSubjects.repositoryInit,
        { repository: toEventRepository(row, owner, this.urls) },
        { timeoutMs: this.settings.hooksInitTimeoutMs },
      );
    } catch (err) {
      const code = err instanceof DomainError ? err.code : 'ERROR';
      this.logger.warn(
        `default hooks of ${row.ownerName}/${row.name} not copied now (${code}: ${(err as Error).message}); ` +
          'the repository.created event will complete it',
      );
    }
  }


  async get(req: RepoScopedRequest): Promise<RepositoryDto> {
    const row = await this.repositories.findById(req.repo.id);
    if (!row) throw DomainError.notFound('repository not found');
    const parents = await this.parentsOf([row], req.actor ?? null);
    return toRepositoryDto(row, await this.ownerOf(row), req.access, this.urls, parents.get(row.forkId ?? 0));
  }

  /** Gitea's `GET /repositories/{id}`: one the actor cannot see is not found. */
  async getById(req: GetRepositoryByIdRequest): Promise<RepositoryDto> {
    const [found] = await this.visible({ actor: req.actor, ids: [req.id] });
    if (!found) throw DomainError.notFound('repository not found');
    if (!found.fork) return found;
    const row = await this.repositories.findById(req.id);
    const parents = row ? await this.parentsOf([row], req.actor ?? null) : new Map<number, RepositoryDto>();
    return { ...found, parent: parents.get(row?.forkId ?? 0) ?? null };
  }

  private async parentsOf(rows: RepositoryRow[], actor: ActorDto | null): Promise<Map<number, RepositoryDto>> {
    const ids = rows.flatMap((r) => (r.isFork && r.forkId !== null ? [r.forkId] : []));
    if (!ids.length) return new Map();
    const seen = await this.visible({ actor, ids });
    return new Map(seen.map((p) => [p.id, p]));
  }


  /** Gitea's `CreateFork`: storage first as `create`, then row, parent's fork count and event in one transaction. */
  async fork(req: ForkRepositoryRequest): Promise<RepositoryDto> {
    const actor = req.actor;
    if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
    const source = await this.repositories.findById(req.repo.id);
    if (!source) throw DomainError.notFound('repository not found');
    const body = req.body ?? {};
    const owner = await this.forkOwner(actor, body.organization);
    const name = body.name ?? source.name;
    const invalid = nameProblem(name);
    if (invalid) throw invalid;
    if (await this.repositories.hasFork(owner.id, source.id)) {
      throw DomainError.alreadyExists(`user "${owner.login}" already has a fork of ${source.ownerName}/${source.name}`);
    }
    if (await this.repositories.existsByName(owner.id, name)) throw DomainError.alreadyExists(DUPLICATE);
    const users = await this.identity.usersById([actor.id, source.ownerId]);
    const doer = users.get(actor.id) ?? placeholderUser(actor.id, actor.login, this.urls.rootUrl);
    const sourceOwner = users.get(source.ownerId) ?? placeholderUser(source.ownerId, source.ownerName, this.urls.rootUrl);

    const location = { ownerName: owner.login, name };
    await this.storage.init(location, source.defaultBranch);
    let row: RepositoryRow;
    try {
      await this.storage.copyRefsFrom(location, source);
      row = await inTx(this.prisma, async (tx) => {
        const created = await this.repositories.insert(tx, {
          ownerId: owner.id,
          ownerName: owner.login,
          ownerKind: owner.kind,
          name,
          description: source.description,
          isPrivate: source.isPrivate,
          isEmpty: source.isEmpty,
          isTemplate: false,
          defaultBranch: source.defaultBranch,
          trustModel: source.trustModel,
          forkId: source.id,
        }, this.firstWatcher(actor.id));
        const counted = await this.repositories.countFork(tx, source.id);
        const forkee = toEventRepository(created, owner.user, this.urls);
        const data: RepositoryEventData = { repository: forkee, sender: doer };
        await this.outbox.record(tx, RepoEvents.repositoryCreated, data);
        const forked: RepositoryForkedEventData = {
          repository: toEventRepository(counted, sourceOwner, this.urls),
          forkee,
          sender: doer,
        };
        await this.outbox.record(tx, RepoEvents.repositoryForked, forked);
        return created;
      }, PRISMA_TX_LIMITS);
    } catch (err) {
      await this.storage.remove(location).catch((e: Error) =>
        this.logger.error(`could not remove the storage of ${owner.login}/${name}: ${e.message}`),
      );
      if (uniqueViolation(err) !== null) throw DomainError.alreadyExists(DUPLICATE);
      throw err;
    }
    this.outbox.kick();
    await this.initHooks(row, owner.user);
    const parents = await this.parentsOf([row], actor);
    return toRepositoryDto(row, owner.user, 'owner', this.urls, parents.get(source.id));
  }

  private async forkOwner(actor: ActorDto, organization: string | undefined): Promise<OwnerDto> {
    if (organization === undefined) return this.identity.resolveOwner(actor.login);
    const org = await this.identity.resolveOwner(organization).catch((err: unknown) => {
      if (err instanceof DomainError && err.code === ErrorCode.NOT_FOUND) {
        throw DomainError.unprocessable(`organization "${organization}" does not exist`);
      }
      throw err;
    });
    if (org.kind !== 'organization') throw DomainError.unprocessable(`organization "${organization}" does not exist`);
    if (actor.isAdmin) return org;
    const standing = await this.identity.membership(org.id, actor.id);
    if (!standing.isMember) throw DomainError.forbidden(`User is no Member of Organisation '${org.login}'`);
    if (!standing.isOwner && !standing.teams.some((t) => t.canCreateOrgRepo)) {
      throw DomainError.forbidden('Given user is not allowed to create repository in organization.');
    }
    return org;
  }

  async forks(req: ListForksRequest): Promise<Paginated<RepositoryDto>> {
    const actor = req.actor ?? null;
    const standings =
      actor && !actor.isAdmin ? await this.identity.standings(actor) : new Map<number, OrgMembershipReply>();
    const filter: RepositoryFilter = {
      scope: viewerScope(actor, standings, this.settings.twoFactorAuth),
      includePrivate: actor !== null,
      forkOf: req.repo.id,
    };
    const page = await this.repositories.list(filter, toPaging(req.query), 'id');
    return this.render(page, actor, standings);
  }

  async summary(req: RepoScopedRequest): Promise<RepositorySummaryDto> {
    const row = await this.repositories.findById(req.repo.id);
    if (!row) throw DomainError.notFound('repository not found');
    return toRepositorySummary(row, this.urls);
  }

  async visible(req: VisibleRepositoriesRequest): Promise<RepositoryDto[]> {
    const user = this.access.viewer(req.actor);
    const out: RepositoryDto[] = [];
    for (const id of new Set(req.ids)) {
      const access = await this.access.accessById(user, id).catch((err: unknown) => {
        if (err instanceof DomainError && err.code === ErrorCode.NOT_FOUND) return 'none' as const;
        throw err;
      });
      if (access === 'none') continue;
      const row = await this.repositories.findById(id);
      if (row) out.push(toRepositoryDto(row, await this.ownerOf(row), access, this.urls));
    }
    return out;
  }


  async edit(req: EditRepositoryRequest): Promise<RepositoryDto> {
    const row = await this.repositories.findById(req.repo.id);
    if (!row) throw DomainError.notFound('repository not found');
    const body = req.body ?? {};
    const changes: RepositoryChanges = {};

    let renamed = false;
    if (body.name !== undefined && body.name !== row.name) {
      if (body.name.toLowerCase() !== row.lowerName) {
        const problem = checkRepoName(body.name);
        if (problem) {
          throw DomainError.unprocessable(
            problem.problem === 'reserved'
              ? `repo name is reserved [name: ${body.name}]`
              : problem.problem === 'pattern'
                ? `repo name's pattern is not allowed [name: ${body.name}]`
                : problem.message,
          );
        }
        if (await this.repositories.existsByName(row.ownerId, body.name)) {
          throw DomainError.unprocessable(`repo name is already taken [name: ${body.name}]`);
        }
        renamed = true;
      }
      changes.name = body.name;
    }
    if (body.description !== undefined) changes.description = body.description;
    if (body.website !== undefined) changes.website = body.website;
    if (body.private !== undefined) changes.isPrivate = body.private;
    if (body.template !== undefined) changes.isTemplate = body.template;
    if (body.default_branch !== undefined && body.default_branch !== row.defaultBranch) {
      if (!isValidBranchName(body.default_branch)) {
        throw DomainError.unprocessable(`invalid default branch name "${body.default_branch}"`);
      }
      if (!row.isEmpty && !(await this.storage.branchExists(row, body.default_branch))) {
        throw DomainError.unprocessable(`branch "${body.default_branch}" does not exist`);
      }
      changes.defaultBranch = body.default_branch;
    }
    if (body.archived !== undefined && body.archived !== row.isArchived) {
      changes.isArchived = body.archived;
      changes.archivedAt = body.archived ? new Date() : null;
    }
    const flags = {
      has_issues: 'hasIssues',
      has_pull_requests: 'hasPullRequests',
      has_releases: 'hasReleases',
      has_packages: 'hasPackages',
      has_actions: 'hasActions',
      ignore_whitespace_conflicts: 'ignoreWhitespaceConflicts',
      allow_merge_commits: 'allowMergeCommits',
      allow_rebase: 'allowRebase',
      allow_rebase_explicit: 'allowRebaseExplicit',
      allow_squash_merge: 'allowSquashMerge',
      allow_fast_forward_only_merge: 'allowFastForwardOnlyMerge',
      allow_rebase_update: 'allowRebaseUpdate',
      allow_manual_merge: 'allowManualMerge',
      autodetect_manual_merge: 'autodetectManualMerge',
      default_delete_branch_after_merge: 'defaultDeleteBranchAfterMerge',
      default_allow_maintainer_edit: 'defaultAllowMaintainerEdit',
    } as const;
    for (const [field, column] of Object.entries(flags) as [keyof typeof flags, (typeof flags)[keyof typeof flags]][]) {
      const value = body[field];
      if (value !== undefined) changes[column] = value;
    }
    if (body.default_merge_style !== undefined) changes.defaultMergeStyle = body.default_merge_style;
    if (body.trust_model !== undefined) changes.trustModel = body.trust_model;

    const from = { ownerName: row.ownerName, name: row.name };
    const to = { ownerName: row.ownerName, name: changes.name ?? row.name };
    if (renamed) await this.storage.rename(from, to);
    let updated: RepositoryRow;
    try {
      updated = await inTx(this.prisma, (tx) => this.repositories.update(tx, row.id, changes), PRISMA_TX_LIMITS);
    } catch (err) {
      if (renamed) {
        await this.storage.rename(to, from).catch((e: Error) =>
          this.logger.error(`could not move ${to.ownerName}/${to.name} back to ${from.name}: ${e.message}`),
        );
      }
      if (uniqueViolation(err) !== null) {
        throw DomainError.unprocessable(`repo name is already taken [name: ${body.name}]`);
      }
      throw err;
    }
    if (changes.defaultBranch !== undefined) {
      await this.storage.setHead(to, changes.defaultBranch).catch((e: Error) =>
        this.logger.error(
          `could not point HEAD of ${updated.ownerName}/${updated.name} at ${changes.defaultBranch}: ${e.message}`,
        ),
      );
    }
    return toRepositoryDto(updated, await this.ownerOf(updated), req.access, this.urls);
  }


  /** Gitea's direct transfer; to another user only by site admins (no pending transfers). Storage moves first. */
  async transfer(req: TransferRepositoryRequest): Promise<RepositoryDto> {
    const actor = requireActor(req.actor);
    const row = await this.repositories.findById(req.repo.id);
    if (!row) throw DomainError.notFound('repository not found');
    const target = await this.identity.resolveOwner(req.body.new_owner);
    if (target.id === row.ownerId) throw DomainError.unprocessable(`the repository already belongs to "${target.login}"`);
    if (!actor.isAdmin) {
      if (target.kind === 'user' && target.id !== actor.id) {
        throw DomainError.forbidden('only a site admin can transfer a repository to another user');
      }
      if (target.kind === 'organization') {
        const standing = await this.identity.membership(target.id, actor.id);
        if (!standing.isOwner && !standing.teams.some((t) => t.canCreateOrgRepo)) {
          throw DomainError.forbidden('Given user is not allowed to create repository in organization.');
        }
      }
    }
    if (await this.repositories.existsByName(target.id, row.name)) {
      throw DomainError.unprocessable(`repository "${target.login}/${row.name}" already exists`);
    }
    // Gitea's `team_ids`, checked before anything moves.
    const teamIds = [...new Set(req.body.team_ids ?? [])];
    if (teamIds.length > 0 && target.kind !== 'organization') {
      throw DomainError.unprocessable('team_ids can only be given when the new owner is an organization');
    }
    for (const teamId of teamIds) {
      const team = await this.identity.team(actor, teamId);
      if (team.organization?.id !== target.id) throw DomainError.unprocessable(`team ${teamId} is not a team of "${target.login}"`);
    }
    const from = { ownerName: row.ownerName, name: row.name };
    const to = { ownerName: target.login, name: row.name };
    await this.storage.rename(from, to);
    let updated: RepositoryRow;
    try {
      updated = await inTx(this.prisma, (tx) => this.repositories.transfer(tx, row.id, target), PRISMA_TX_LIMITS);
    } catch (err) {
      await this.storage.rename(to, from).catch((e: Error) =>
        this.logger.error(`could not move ${to.ownerName}/${to.name} back to ${from.ownerName}: ${e.message}`),
      );
      if (uniqueViolation(err) !== null) throw DomainError.unprocessable(`repository "${target.login}/${row.name}" already exists`);
      throw err;
    }
    for (const teamId of teamIds) await this.repositories.grantTeam(target.id, teamId, row.id);
    return toRepositoryDto(updated, target.user, req.access, this.urls);
  }


  onDelete(hook: RepositoryDeletionHook): void {
    this.deletionHooks.push(hook);
  }

  async delete(req: RepoScopedRequest): Promise<void> {
    const row = await this.repositories.findById(req.repo.id);
    if (!row) throw DomainError.notFound('repository not found');
    const ids = req.actor ? [row.ownerId, req.actor.id] : [row.ownerId];
    const users = await this.identity.usersById(ids);
    const owner = users.get(row.ownerId) ?? placeholderUser(row.ownerId, row.ownerName, this.urls.rootUrl);
    const sender = req.actor
      ? (users.get(req.actor.id) ?? placeholderUser(req.actor.id, req.actor.login, this.urls.rootUrl))
      : null;
    for (const hook of this.deletionHooks) {
      await hook(row.id, req.actor ?? null).catch((e: Error) =>
        this.logger.warn(`before deleting repository ${row.id}: ${e.message}`),
      );
    }
    // Read before the rows cascade away with the repository; released once they are gone.
    const blobs = await this.attachments.blobsOfRepository(row.id);
    await inTx(this.prisma, async (tx) => {
      await this.repositories.delete(tx, row.id);
      const data: RepositoryEventData = { repository: toEventRepository(row, owner, this.urls), sender };
      await this.outbox.record(tx, RepoEvents.repositoryDeleted, data);
    }, PRISMA_TX_LIMITS);
    this.outbox.kick();
    // The row is gone: a failure here only leaves a stray directory.
    await this.storage.remove(row).catch((e: Error) =>
      this.logger.error(`repository ${row.ownerName}/${row.name} deleted but its storage was not: ${e.message}`),
    );
    await this.attachments.release(blobs);
  }


  async list(req: ListRepositoriesRequest): Promise<Paginated<RepositoryDto>> {
    const actor = req.actor ?? null;
    const paging = toPaging(req.query);
    if (!req.owner) {
      if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
      const standings = actor.isAdmin ? new Map<number, OrgMembershipReply>() : await this.identity.standings(actor);
      const scope = viewerScope(actor, standings, this.settings.twoFactorAuth);
      const page = await this.repositories.list({ scope, includePrivate: true, reachableOnly: true }, paging);
      return this.render(page, actor, standings);
    }
    const owner = await this.identity.resolveOwner(req.owner);
    if (req.ownerKind && owner.kind !== req.ownerKind) throw DomainError.notFound(`"${req.owner}" does not exist`);
    const standing =
      owner.kind === 'organization' && actor && !actor.isAdmin
        ? await this.identity.membership(owner.id, actor.id)
        : null;
    if (!this.ownerVisible(actor, owner, standing)) throw DomainError.notFound(`"${req.owner}" does not exist`);
    const standings = new Map<number, OrgMembershipReply>(standing ? [[owner.id, standing]] : []);
    const scope = viewerScope(actor, standings, this.settings.twoFactorAuth);
    const page = await this.repositories.list({ scope, includePrivate: actor !== null, ownerId: owner.id }, paging);
    return this.render(page, actor, standings, new Map([[owner.id, owner.user]]));
  }

  /** Teams that include all get every repository of the org (Gitea stores rows for those; Cairn needs none). */
  async teamRepositories(
    actor: ActorDto,
    team: { id: number; orgId: number; includesAll: boolean },
    paging: Paging,
  ): Promise<Paginated<RepositoryDto>> {
    const standing = actor.isAdmin ? null : await this.identity.membership(team.orgId, actor.id);
    const standings = new Map<number, OrgMembershipReply>(standing ? [[team.orgId, standing]] : []);
    const scope = viewerScope(actor, standings, this.settings.twoFactorAuth);
    const filter: RepositoryFilter = { scope, includePrivate: true, ownerId: team.orgId };
    if (!team.includesAll) filter.teamId = team.id;
    return this.render(await this.repositories.list(filter, paging), actor, standings);
  }

  async search(req: SearchRepositoriesRequest): Promise<Paginated<RepositoryDto>> {
    const actor = req.actor ?? null;
    const q = req.query ?? {};
    const mode = q.mode ?? '';
    if (!SEARCH_MODES.includes(mode)) throw DomainError.unprocessable(`Invalid search mode: "${mode}"`);
    let order: RepositoryOrder = 'alpha';
    let desc = false;
    if (q.sort) {
      const direction = q.order || 'asc';
      if (direction !== 'asc' && direction !== 'desc') {
        throw DomainError.unprocessable(`Invalid sort order: "${direction}"`);
      }
      if (!SEARCH_SORTS.includes(q.sort as RepositoryOrder)) {
        throw DomainError.unprocessable(`Invalid sort mode: "${q.sort}"`);
      }
      order = q.sort as RepositoryOrder;
      desc = direction === 'desc';
    }
    // Cairn has no mirrors.
    if (mode === 'mirror') return { items: [], total: 0 };

    const standings =
      actor && !actor.isAdmin ? await this.identity.standings(actor) : new Map<number, OrgMembershipReply>();
    const filter: RepositoryFilter = {
      scope: viewerScope(actor, standings, this.settings.twoFactorAuth),
      includePrivate: actor !== null && (q.private ?? true),
      includeDescription: q.includeDesc ?? false,
      template: q.template,
      archived: q.archived,
      isPrivate: q.is_private,
      teamId: q.team_id || undefined,
      starredBy: q.starredBy || undefined,
      isFork: mode === 'fork' ? true : mode === 'source' ? false : undefined,
    };
    const keyword = q.q?.trim();
    if (keyword && q.topic) {
      // Gitea: with `topic`, each comma-separated keyword names a topic exactly.
      filter.anyTopic = keyword.split(',').map(sanitizeTopic).filter(Boolean);
    } else if (keyword) {
      filter.keyword = keyword;
    }
    const related = q.uid || (mode === 'collaborative' ? actor?.id : undefined);
    if (related) {
      filter.relatedUserId = related;
      filter.exclusive = q.exclusive ?? false;
      filter.collaborativeOnly = mode === 'collaborative';
    }
    const page = await this.repositories.list(filter, toPaging(q), order, desc, q.priority_owner_id || undefined);
    return this.render(page, actor, standings);
  }

  /** Owners in one identity call, access in two queries; rows whose owner the actor may not see are left out. */
  private async render(
    page: { items: RepositoryRow[]; total: number },
    actor: ActorDto | null,
    standings: Map<number, OrgMembershipReply>,
    knownOwners?: Map<number, UserDto>,
  ): Promise<Paginated<RepositoryDto>> {
    const owners = knownOwners ?? (await this.identity.usersById(page.items.map((r) => r.ownerId)));
    const [access, parents] = await Promise.all([
      this.access.accessOfMany(this.access.viewer(actor), page.items, owners, standings),
      this.parentsOf(page.items, actor),
    ]);
    const items: RepositoryDto[] = [];
    for (const row of page.items) {
      const level = access.get(row.id) ?? 'none';
      if (level === 'none') continue;
      const owner = owners.get(row.ownerId) ?? placeholderUser(row.ownerId, row.ownerName, this.urls.rootUrl);
      items.push(toRepositoryDto(row, owner, level, this.urls, parents.get(row.forkId ?? 0)));
    }
    return { items, total: page.total - (page.items.length - items.length) };
  }

  private ownerVisible(actor: ActorDto | null, owner: OwnerDto, standing: OrgMembershipReply | null): boolean {
    if (owner.visibility === 'public') return true;
    if (!actor) return false;
    if (owner.visibility === 'limited' || actor.isAdmin || actor.id === owner.id) return true;
    return standing?.isMember ?? false;
  }

  private firstWatcher(creatorId: number): number | undefined {
    return this.settings.autoWatchNewRepos && creatorId > 0 ? creatorId : undefined;
  }

  private async ownerOf(row: RepositoryRow): Promise<UserDto> {
    const users = await this.identity.usersById([row.ownerId]);
    return users.get(row.ownerId) ?? placeholderUser(row.ownerId, row.ownerName, this.urls.rootUrl);
  }
}
