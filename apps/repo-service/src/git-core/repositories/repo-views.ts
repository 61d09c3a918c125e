import { Inject, Injectable } from '@nestjs/common';
import {
  placeholderUser,
  DomainError, IdentitySubjects, type AccessLevel, type ActorDto, type RepoEventRepository, type RepoRefDto, type RepositoryDto,
  type UserDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import { REPO_SETTINGS, type RepoSettings } from '../../foundation/config/repo-settings.js';
import { RepositoriesRepository, type RepositoryRow } from './repositories.repository.js';
import {
  hostOf, toEventRepository, toRepositoryDto, type RepoUrlSettings,
} from './repository.mapper.js';

export interface IssueRenderContext {
  rootUrl: string;
  repo: { id: number; ownerName: string; name: string };
  users: Map<number, UserDto>;
}

export interface ViewScope {
  actor: ActorDto | null;
  repo: Pick<RepoRefDto, 'id' | 'ownerId' | 'ownerName' | 'name'>;
  access: AccessLevel;
}

/** How long system flows (worker reports, pushes) reuse users and repositories they rendered: bursts of checks. */
const SYSTEM_CACHE_MS = 5_000;
const SYSTEM_CACHE_MAX = 10_000;

@Injectable()
export class RepoViews {
  readonly urls: RepoUrlSettings;
  private readonly userCache = new Map<number, { at: number; user: UserDto | null }>();
  private readonly repoCache = new Map<number, { at: number; value: Promise<{ row: RepositoryRow; json: RepositoryDto; event: RepoEventRepository }> }>();

  constructor(
    private readonly identity: IdentityDirectory,
    private readonly repositories: RepositoriesRepository,
    private readonly rpc: RpcClient,
    @Inject(COMMON_SETTINGS) common: CommonSettings,
    @Inject(REPO_SETTINGS) settings: RepoSettings,
  ) {
    this.urls = {
      rootUrl: common.rootUrl,
      sshUser: settings.sshUser,
      sshHost: settings.sshDomain || hostOf(common.rootUrl),
      sshPort: common.sshPort,
    };
  }

  get rootUrl(): string {
    return this.urls.rootUrl;
  }

  /** Users by id (one identity call); missing ones are left out (rendered as Ghost). */
  users(ids: Iterable<number>): Promise<Map<number, UserDto>> {
    return this.identity.usersById([...ids].filter((id) => id > 0));
  }

  async usersByEmail(emails: Iterable<string>): Promise<Map<string, UserDto>> {
    const unique = [...new Set([...emails].filter(Boolean).map((e) => e.toLowerCase()))];
    if (unique.length === 0) return new Map();
    const reply = await this.rpc.send(IdentitySubjects.userLookup, { emails: unique });
    const byId = new Map(reply.users.map((u) => [u.id, u]));
    const out = new Map<string, UserDto>();
    for (const [email, id] of Object.entries(reply.byEmail ?? {})) {
      const user = byId.get(id);
      if (user) out.set(email.toLowerCase(), user);
    }
    return out;
  }

  /** The scope of system actions on a repository (no actor; rendered with owner permissions, as Gitea's webhooks). */
  async systemScope(repoId: number): Promise<ViewScope & { repo: { ownerId: number } }> {
    const row = await this.row(repoId);
    return { actor: null, repo: { id: row.id, ownerId: row.ownerId, ownerName: row.ownerName, name: row.name }, access: 'owner' };
  }

  async context(scope: ViewScope, userIds: Iterable<number>): Promise<IssueRenderContext> {
    return { rootUrl: this.urls.rootUrl, repo: scope.repo, users: await this.users(userIds) };
  }

  async sender(actor: ActorDto | null, known?: Map<number, UserDto>): Promise<UserDto | null> {
    if (!actor) return null;
    const found = known?.get(actor.id) ?? (await this.users([actor.id])).get(actor.id);
    return found ?? placeholderUser(actor.id, actor.login, this.urls.rootUrl);
  }

  /** Reused briefly by system flows, so a burst of checks costs one identity call; never for people's requests. */
  async usersCached(ids: Iterable<number>): Promise<Map<number, UserDto>> {
    const now = Date.now();
    const out = new Map<number, UserDto>();
    const missing: number[] = [];
    for (const id of new Set(ids)) {
      const hit = this.userCache.get(id);
      if (hit && now - hit.at < SYSTEM_CACHE_MS) {
        if (hit.user) out.set(id, hit.user);
      } else if (id > 0) missing.push(id);
    }
    if (missing.length) {
      const fetched = await this.users(missing);
      if (this.userCache.size > SYSTEM_CACHE_MAX) this.userCache.clear();
      for (const id of missing) {
        const user = fetched.get(id) ?? null;
        this.userCache.set(id, { at: now, user });
        if (user) out.set(id, user);
      }
    }
    return out;
  }

  /** The repository (row, owner-permission JSON, event form) for system flows, reused for a few seconds. */
  repositoryCached(repoId: number): Promise<{ row: RepositoryRow; json: RepositoryDto; event: RepoEventRepository }> {
    const now = Date.now();
    const hit = this.repoCache.get(repoId);
    if (hit && now - hit.at < SYSTEM_CACHE_MS) return hit.value;
    const value = (async () => {
      const row = await this.row(repoId);
      return this.repository(repoId, 'owner', await this.usersCached([row.ownerId]));
    })();
    if (this.repoCache.size > SYSTEM_CACHE_MAX) this.repoCache.clear();
    this.repoCache.set(repoId, { at: now, value });
    value.catch(() => this.repoCache.delete(repoId));
    return value;
  }

  async row(repoId: number): Promise<RepositoryRow> {
    const row = await this.repositories.findById(repoId);
    if (!row) throw DomainError.notFound('repository not found');
    return row;
  }

  async repository(
    repoId: number,
    access: AccessLevel,
    known?: Map<number, UserDto>,
  ): Promise<{ row: RepositoryRow; json: RepositoryDto; event: RepoEventRepository }> {
    const row = await this.row(repoId);
    const owner =
      known?.get(row.ownerId) ??
      (await this.users([row.ownerId])).get(row.ownerId) ??
      placeholderUser(row.ownerId, row.ownerName, this.urls.rootUrl);
    return {
      row,
      json: toRepositoryDto(row, owner, access, this.urls),
      event: toEventRepository(row, owner, this.urls),
    };
  }
}
