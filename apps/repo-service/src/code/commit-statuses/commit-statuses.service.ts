import { Injectable, Logger } from '@nestjs/common';
import {
  combineCommitStatusStates, CommitStatusEvents, DomainError, ErrorCode, repoUrls, toPaging,
  type CombinedStatusReply, type CommitStatusDto, type CreateCommitStatusRequest,
  type GetCombinedStatusRequest, type ListCommitStatusesRequest, type Paginated, type PushedCommit,
  type CommitStatusState, type RepoRefDto,
} from '@cairn/contracts';
import { EventOutbox } from '@cairn/platform';
import { GitReadContext } from '../../git-core/git/git-read-context.js';
import { logDiffs, readCommitObjects, resolveRef } from '@cairn/git';
import { PrismaService } from '../../foundation/prisma/prisma.service.js';
import { RepoViews } from '../../git-core/repositories/repo-views.js';
import { inTx } from '../../foundation/prisma/tx.js';
import { CommitStatusStore, type CommitStatusRow } from './commit-status-store.repository.js';
import { toCommitStatusDto, toPayloadCommit } from './commit-statuses.mapper.js';

/** Commit statuses (Gitea's `routers/api/v1/repo/status.go` and `services/repository/commitstatus`). */
@Injectable()
export class CommitStatusesService {
  private readonly logger = new Logger(CommitStatusesService.name);

  constructor(
    private readonly store: CommitStatusStore,
    private readonly prisma: PrismaService,
    private readonly outbox: EventOutbox,
    private readonly git: GitReadContext,
    private readonly views: RepoViews,
  ) {}

  /** Reports a status for a commit (the commit must exist: 404 otherwise, as Gitea). */
  async create(req: CreateCommitStatusRequest): Promise<CommitStatusDto> {
    const actor = req.actor;
    if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
    const repoPath = this.git.pathOf(req.repo);
    const resolved = req.repo.empty ? null : await resolveRef(this.git.pool, repoPath, req.sha);
    if (!resolved) throw DomainError.notFound(`commit "${req.sha}" not found`);
    const sha = resolved.commit;

    const users = await this.views.users([actor.id]);
    const sender = await this.views.sender(actor, users);
    const [{ json, event }, commit] = await Promise.all([
      this.views.repository(req.repo.id, 'owner', users),
      this.payloadCommit(req.repo, repoPath, sha),
    ]);
    const apiUrl = this.git.apiUrl(req.repo);
    const dto = await inTx(this.prisma, async (tx) => {
      const row = await this.store.insert(tx, {
        repoId: req.repo.id,
        sha,
        state: req.body.state,
        targetUrl: (req.body.target_url ?? '').trim(),
        description: (req.body.description ?? '').trim(),
        context: (req.body.context ?? '').trim(),
        creatorId: actor.id,
      });
      const out = toCommitStatusDto(row, apiUrl, sender);
      await this.outbox.record(tx, CommitStatusEvents.created, {
        id: row.id,
        sha,
        status: out,
        commit,
        repository: { ...event, json: json as unknown as Record<string, unknown> },
        sender,
      });
      return out;
    });
    this.outbox.kick();
    return dto;
  }

  /** One page of a commit's statuses; `ref` is a branch, tag or commit id (an unknown one has no statuses). */
  async list(req: ListCommitStatusesRequest): Promise<Paginated<CommitStatusDto>> {
    const sha = await this.shaOf(req.repo, req.ref, req.refMustExist ?? false);
    const { rows, total } = await this.store.list(req.repo.id, sha, {
      sort: req.query.sort?.trim(),
      state: req.query.state?.trim(),
      paging: toPaging(req.query),
    });
    return { items: await this.toDtos(req.repo, rows), total };
  }

  async combined(req: GetCombinedStatusRequest): Promise<CombinedStatusReply> {
    const sha = await this.shaOf(req.repo, req.ref, true);
    const { rows, total } = await this.store.latest(req.repo.id, sha, toPaging(req.query));
    const { json } = await this.views.repository(req.repo.id, req.access);
    const commitUrl = `${json.url}/commits/${encodeURIComponent(sha)}`;
    // The state of the page's statuses, as Gitea computes it. No status at all: Gitea leaves `state` empty and `statuses` null.
    const none = rows.length === 0;
    return {
      status: {
        state: none ? '' : combineCommitStatusStates(rows.map((r) => r.state as CommitStatusState)),
        sha,
        total_count: rows.length,
        statuses: none ? null : await this.toDtos(req.repo, rows),
        repository: json,
        commit_url: commitUrl,
        url: `${commitUrl}/status`,
      },
      total,
    };
  }

  /** Unknown refs are 404 when `mustExist` (Gitea's `resolveRefCommit`), else taken as given (`MustConvertToSHA1`). */
  private async shaOf(repo: RepoRefDto, ref: string, mustExist: boolean): Promise<string> {
    const resolved = repo.empty ? null : await resolveRef(this.git.pool, this.git.pathOf(repo), ref);
    if (resolved) return resolved.commit;
    if (mustExist) throw DomainError.notFound(`ref "${ref}" not found`);
    return ref;
  }

  private async toDtos(repo: RepoRefDto, rows: CommitStatusRow[]): Promise<CommitStatusDto[]> {
    const users = await this.views.users(rows.map((r) => r.creatorId));
    const apiUrl = this.git.apiUrl(repo);
    return rows.map((r) => toCommitStatusDto(r, apiUrl, users.get(r.creatorId) ?? null));
  }

  private async payloadCommit(repo: RepoRefDto, repoPath: string, sha: string): Promise<PushedCommit | null> {
    try {
      const [objects, [diff]] = await Promise.all([
        readCommitObjects(this.git.pool, repoPath, [sha]),
        logDiffs(repoPath, [sha], { files: true, stat: false }),
      ]);
      const commit = objects.get(sha);
      if (!commit) return null;
      const people = await this.views.usersByEmail([commit.author.email, commit.committer.email]);
      const login = (email: string) => people.get(email.toLowerCase())?.login ?? '';
      return toPayloadCommit(sha, commit, diff?.files ?? [], repoUrls(this.git.rootUrl, repo).commit(sha), login);
    } catch (err) {
      this.logger.warn(`could not read commit ${sha} for the status payload: ${(err as Error).message}`);
      return null;
    }
  }
}

