import { Injectable } from '@nestjs/common';
import type {
  ActorDto, IssueDto, PullRequestDto, RepoEventRepository, RepositoryDto, TeamDto, UserDto,
} from '@cairn/contracts';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import { issueUserIds, toIssueDto, type IssueRenderContext } from './issue.mapper.js';
import { RepoViews, type ViewScope } from '../../git-core/repositories/repo-views.js';
import { toPullDto, type PullIssueRow, type PullRenderContext } from './pull.mapper.js';
import { ReviewsRepository } from './reviews.repository.js';
import type { Db } from '../../foundation/prisma/prisma.service.js';
import { AccessService } from '../../foundation/access/access.service.js';

export interface PullRendering {
  ctx: PullRenderContext;
  repoJson: RepositoryDto;
  repository: RepoEventRepository;
  sender: UserDto | null;
  pull(row: PullIssueRow, stats?: PullRenderContext['stats']): PullRequestDto;
  issue(row: PullIssueRow): IssueDto;
}

/** Renders pull requests: users of all rows and the repository in one identity call, whatever the row count. */
@Injectable()
export class PullRenderer {
  constructor(
    private readonly views: RepoViews,
    private readonly reviews: ReviewsRepository,
    private readonly access: AccessService,
    private readonly identity: IdentityDirectory,
  ) {}

  /** Head repositories other than `repoId` (forks) with `level` (Gitea: the viewer's permission); null if deleted. */
  private async headRepos(
    repoId: number,
    rows: PullIssueRow[],
    load: (id: number) => Promise<RepositoryDto>,
  ): Promise<Map<number, RepositoryDto | null>> {
    const ids = [...new Set(rows.flatMap((r) => (r.pullRequest.headRepoId !== null && r.pullRequest.headRepoId !== repoId ? [r.pullRequest.headRepoId] : [])))];
    const found = await Promise.all(ids.map((id) => load(id).catch(() => null)));
    return new Map(ids.map((id, i) => [id, found[i]]));
  }

  private async requested(rows: PullIssueRow[], db?: Db): Promise<Map<number, number[]>> {
    const standings = await this.reviews.standings(rows.map((r) => r.id), db);
    return new Map([...standings].map(([issueId, list]) => [issueId, list.filter((s) => s.type === 'request').map((s) => s.reviewerId)]));
  }

  /** `requested_reviewers_teams`: identity is asked only when there are some; teams deleted since are left out. */
  private async requestedTeams(ownerId: number, rows: PullIssueRow[], db?: Db): Promise<Map<number, TeamDto[]>> {
    const requests = await this.reviews.teamRequests(rows.map((r) => r.id), db);
    const ids = [...new Set([...requests.values()].flat().map((r) => r.reviewerTeamId))];
    if (!ids.length) return new Map();
    const teams = new Map((await this.identity.teams({ orgId: ownerId, ids, withOrganization: true })).map((t) => [t.team.id, t.team]));
    return new Map([...requests].map(([issueId, list]) => [
      issueId,
      list.map((r) => teams.get(r.reviewerTeamId)).filter((t): t is TeamDto => !!t),
    ]));
  }

  get rootUrl(): string {
    return this.views.rootUrl;
  }

  /** For system flows (merge-check reports, pushes): owner permissions, users and repository reused across a burst. */
  async prepareSystem(repoId: number, rows: PullIssueRow[], senderId: number | null = null): Promise<PullRendering> {
    const repo = await this.views.repositoryCached(repoId);
    const ids = new Set<number>([repo.row.ownerId]);
    if (senderId) ids.add(senderId);
    const [requested, requestedTeams] = await Promise.all([this.requested(rows), this.requestedTeams(repo.row.ownerId, rows)]);
    for (const r of rows) {
      issueUserIds(r).forEach((id) => ids.add(id));
      if (r.pullRequest.mergedById) ids.add(r.pullRequest.mergedById);
    }
    for (const list of requested.values()) list.forEach((id) => ids.add(id));
    const users = await this.views.usersCached(ids);
    const scopeRepo = { id: repo.row.id, ownerId: repo.row.ownerId, ownerName: repo.row.ownerName, name: repo.row.name };
    const base: IssueRenderContext = { rootUrl: this.views.rootUrl, repo: scopeRepo, users };
    const headRepos = await this.headRepos(repoId, rows, async (id) => (await this.views.repositoryCached(id)).json);
    const ctx: PullRenderContext = { ...base, repoJson: repo.json, requested, requestedTeams, headRepos };
    return {
      ctx,
      repoJson: repo.json,
      repository: repo.event,
      sender: senderId ? (users.get(senderId) ?? null) : null,
      pull: (row, stats) => toPullDto(row, stats ? { ...ctx, stats } : ctx),
      issue: (row) => toIssueDto(row, base),
    };
  }

  private async viewerRepoJson(actor: ActorDto | null, repoId: number, users: Map<number, UserDto>): Promise<RepositoryDto> {
    return (await this.views.repository(repoId, await this.access.accessById(this.access.viewer(actor), repoId), users)).json;
  }

  /** Adds a head repository to a rendering prepared before its pull request existed (creation: no remote calls later). */
  async addHeadRepo(r: PullRendering, actor: ActorDto | null, repoId: number): Promise<void> {
    r.ctx.headRepos?.set(repoId, await this.viewerRepoJson(actor, repoId, r.ctx.users));
  }

  /** `db`: a transaction whose review requests the rendering must see. */
  async prepare(scope: ViewScope, rows: PullIssueRow[], actor: ActorDto | null = scope.actor, extraUserIds: number[] = [], db?: Db): Promise<PullRendering> {
    const ids = new Set<number>([scope.repo.ownerId, ...extraUserIds]);
    if (actor) ids.add(actor.id);
    const [requested, requestedTeams] = await Promise.all([
      this.requested(rows, db),
      this.requestedTeams(scope.repo.ownerId, rows, db),
    ]);
    for (const r of rows) {
      issueUserIds(r).forEach((id) => ids.add(id));
      if (r.pullRequest.mergedById) ids.add(r.pullRequest.mergedById);
    }
    for (const list of requested.values()) list.forEach((id) => ids.add(id));
    const users = await this.views.users(ids);
    const repo = await this.views.repository(scope.repo.id, scope.access, users);
    const sender = await this.views.sender(actor, users);
    const base: IssueRenderContext = { rootUrl: this.views.rootUrl, repo: scope.repo, users };
    const headRepos = await this.headRepos(scope.repo.id, rows, (id) => this.viewerRepoJson(actor, id, users));
    const ctx: PullRenderContext = { ...base, repoJson: repo.json, requested, requestedTeams, headRepos };
    return {
      ctx,
      repoJson: repo.json,
      repository: repo.event,
      sender,
      pull: (row, stats) => toPullDto(row, stats ? { ...ctx, stats } : ctx),
      issue: (row) => toIssueDto(row, base),
    };
  }
}
