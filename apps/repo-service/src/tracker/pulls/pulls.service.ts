import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import {
  DomainError, NOT_SIGNED_VERIFICATION, PullRequestEvents, encodePathSegments, isValidBranchName, repoUrls, toPaging,
  type ActorDto, type ChangedFileDto, type CommitDto, type CreatePullRequest, type EditPullBody, type EditPullRequest,
  type GetPullByBranchesRequest, type GetPullRequest, type ListPullsRequest, type Paginated,
  type PullHeadReply, type PullHeadRequest, type PullIndexRequest, type PullPageRequest, type PullRequestDto,
} from '@cairn/contracts';
import { canModify } from '../issue-core/issue-permissions.js';
import { requireActor } from '../../foundation/access/require-actor.js';
import { IssuesRepository, type IssueRow } from '../issue-core/issues.repository.js';
import { RepoViews, type ViewScope } from '../../git-core/repositories/repo-views.js';
import {
  diffFiles, diffStats, isAncestor, logRange, mergeBase, pullHeadRef, resolveBranch, updateRef,
} from '@cairn/git';
import { PullHeads, type HeadColumns } from './pull-heads.js';
import { PrismaService, type Tx } from '../../foundation/prisma/prisma.service.js';
import { RepoStorage } from '../../git-core/storage/repo-storage.js';
import { CommitVerifier } from '../../git-core/signatures/commit-verifier.js';
import { MergeabilityService } from './mergeability.service.js';
import { PullRenderer, type PullRendering } from '../issue-core/pull-renderer.js';
import { isPullRow, type PullIssueRow } from '../issue-core/pull.mapper.js';
import { PullsRepository } from './pulls.repository.js';
import { applyIssueEdit } from '../issue-core/issue-edit.js';
import { inTx } from '../../foundation/prisma/tx.js';
import { Assignees } from '../issue-core/assignees.js';
import { EventOutbox } from '@cairn/platform';
import { NewIssueExtras } from '../labels/new-issue-extras.js';
import { RepositoriesService } from '../../git-core/repositories/repositories.service.js';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';

const FILE_STATUS: Record<string, string> = {
  A: 'added',
  D: 'deleted',
  M: 'modified',
  R: 'renamed',
  C: 'copied',
  T: 'changed',
};

/** From a branch of the repository, a fork or its parent (`PullHeads`); merging and updating live in `merge/`. */
@Injectable()
export class PullsService implements OnModuleInit {
  private readonly logger = new Logger('PullsService');

  constructor(
    private readonly prisma: PrismaService,
    private readonly issues: IssuesRepository,
    private readonly pulls: PullsRepository,
    private readonly mergeability: MergeabilityService,
    private readonly renderer: PullRenderer,
    private readonly views: RepoViews,
    private readonly storage: RepoStorage,
    private readonly outbox: EventOutbox,
    private readonly verifier: CommitVerifier,
    private readonly assignees: Assignees,
    private readonly extras: NewIssueExtras,
    private readonly heads: PullHeads,
    private readonly repositories: RepositoriesService,
    private readonly identity: IdentityDirectory,
  ) {}

  onModuleInit(): void {
    this.repositories.onDelete((repoId, actor) => this.closeHeadRepoPulls(repoId, actor));
  }

  /** The pull request with this number (a plain issue's number is NOT_FOUND, as Gitea). */
  async load(repoId: number, index: number): Promise<PullIssueRow> {
    const row = await this.issues.findByIndex(repoId, index);
    if (!isPullRow(row)) throw DomainError.notFound('pull request not found');
    return row;
  }

  async create(req: CreatePullRequest): Promise<PullRequestDto> {
    const actor = requireActor(req.actor);
    const { repo: headRepo, branch: headBranch } = await this.heads.parse(req, req.body.head);
    const headRepoId = headRepo?.id ?? null;
    const baseBranch = req.body.base.trim();
    for (const [what, name] of [['head', headBranch], ['base', baseBranch]] as const) {
      if (!isValidBranchName(name)) throw DomainError.unprocessable(`invalid ${what} branch name "${name.slice(0, 100)}"`);
    }
    if (!headRepo && headBranch === baseBranch) throw DomainError.unprocessable('head and base must be different branches');
    const dir = this.storage.pathFor(req.repo);
    // A fork's head commit is copied into this repository first: everything below runs here.
    const [baseSha, headSha] = await Promise.all([
      resolveBranch(dir, baseBranch),
      headRepo ? this.heads.tipInto(dir, headRepo, headBranch) : resolveBranch(dir, headBranch),
    ]);
    if (!baseSha) throw DomainError.notFound(`base branch "${baseBranch}" does not exist`);
    if (!headSha) throw DomainError.notFound(`head branch "${headBranch}" does not exist`);
    const base = await mergeBase(dir, baseSha, headSha);
    if (!base) throw DomainError.unprocessable(`"${headBranch}" and "${baseBranch}" have no history in common`);
    if (await isAncestor(dir, headSha, baseSha)) {
      throw DomainError.unprocessable(`there are no changes between "${baseBranch}" and "${headBranch}"`);
    }

    const assigneeIds = (await this.assignees.resolve(req, req.body)) ?? [];
    const extras = await this.extras.check(req, req.body);
    const r = await this.renderer.prepare(req, [], actor, assigneeIds);
    if (headRepo) await this.renderer.addHeadRepo(r, actor, headRepo.id);
    const allowMaintainerEdit = (await this.views.row(req.repo.id)).defaultAllowMaintainerEdit;
    const now = new Date();
    const { row, dto } = await inTx(this.prisma, async (tx) => {
      // Allocating the number locks the repository's counter row: creations in one repository run one at a time,
      // so the duplicate check below cannot race.
      const index = await this.issues.allocateIndex(tx, req.repo.id);
      await this.refuseDuplicate(tx, req.repo.id, { headRepoId, headBranch }, baseBranch);
      const issue = await this.issues.insertIssue(tx, {
        repoId: req.repo.id,
        index,
        isPull: true,
        title: req.body.title.trim(),
        body: req.body.body ?? '',
        posterId: actor.id,
        closed: false,
        now,
      });
      const pull = await this.pulls.insertPull(tx, {
        issueId: issue.id,
        repoId: req.repo.id,
        headRepoId,
        headBranch,
        baseBranch,
        headSha,
        baseSha,
        mergeBase: base,
        allowMaintainerEdit,
      });
      await this.issues.setAssignees(tx, issue.id, assigneeIds);
      await this.extras.apply(tx, issue.id, extras, now);
      const created = { ...(await this.issues.findById(req.repo.id, issue.id, tx))!, pullRequest: pull } as PullIssueRow;
      const out = r.pull(created);
      await this.outbox.record(tx, PullRequestEvents.opened, {
        action: 'opened',
        number: index,
        pullRequest: out,
        repository: r.repository,
        sender: r.sender,
      });
      // Gitea notifies each assignment of a new pull request too.
      for (const id of assigneeIds) {
        await this.outbox.record(tx, PullRequestEvents.assigned, {
          action: 'assigned', number: index, pullRequest: out, assignee: r.ctx.users.get(id), repository: r.repository, sender: r.sender,
        });
      }
      return { row: created, dto: out };
    });
    this.outbox.kick();
    await updateRef(dir, pullHeadRef(row.index), headSha, undefined, 'cairn: pull request head');
    // Creation is never delayed: the check is queued at once.
    await this.mergeability.queueCheck(row.pullRequest).catch((err) =>
      this.logger.warn(`could not queue the check of new pull ${row.pullRequest.id}: ${(err as Error).message}`),
    );
    return dto;
  }

  private async refuseDuplicate(tx: Tx, repoId: number, head: HeadColumns, baseBranch: string, exceptId?: number) {
    const existing = await this.pulls.findOpenByBranches(repoId, head.headRepoId, head.headBranch, baseBranch, tx);
    if (existing && existing.pullRequest.id !== exceptId) {
      const pr = existing.pullRequest;
      throw DomainError.alreadyExists(
        `pull request already exists for these targets [id: ${pr.id}, issue_id: ${existing.id}, number: ${existing.index}, ` +
          `head_repo_id: ${head.headRepoId ?? repoId}, base_repo_id: ${repoId}, head_branch: ${head.headBranch}, base_branch: ${baseBranch}]`,
      );
    }
  }

  /** Lists pull requests; listing never triggers checks. */
  async list(req: ListPullsRequest): Promise<Paginated<PullRequestDto>> {
    const q = req.query ?? {};
    let posterId: number | undefined;
    if (q.poster) {
      const poster = await this.identity.userByLogin(q.poster);
      if (!poster) throw DomainError.invalid(`Poster not found: user "${q.poster.slice(0, 100)}" does not exist`);
      posterId = poster.id;
    }
    const page = await this.pulls.list(
      req.repo.id,
      { state: q.state ?? 'open', baseBranch: q.base_branch || undefined, milestoneId: q.milestone, labelIds: q.labels, posterId },
      q.sort,
      toPaging(q),
    );
    const r = await this.renderer.prepare(req, page.items, null);
    return { items: page.items.map((row) => r.pull(row)), total: page.total };
  }

  /** One pull request; a view (`view: true`) queues a delayed check at once (this answer may still say `checking`). */
  async get(req: GetPullRequest): Promise<PullRequestDto> {
    const row = await this.load(req.repo.id, req.index);
    return this.present(req, row, req.view === true);
  }

  /** The commit a head names (`branch` or a fork's `owner:branch`), copied into this repository from a fork. */
  async headCommit(req: PullHeadRequest): Promise<PullHeadReply> {
    const { repo, branch } = await this.heads.parse(req, req.head);
    if (!isValidBranchName(branch)) throw DomainError.unprocessable(`invalid head branch name "${branch.slice(0, 100)}"`);
    const dir = this.storage.pathFor(req.repo);
    const sha = repo ? await this.heads.tipInto(dir, repo, branch) : await resolveBranch(dir, branch);
    if (!sha) throw DomainError.notFound(`head branch "${branch.slice(0, 100)}" does not exist`);
    return { sha };
  }

  async getByBranches(req: GetPullByBranchesRequest): Promise<PullRequestDto> {
    const head = await this.heads.parse(req, req.head);
    const row = await this.pulls.findLatestByBranches(req.repo.id, head.repo?.id ?? null, head.branch, req.base.trim());
    if (!row) throw DomainError.notFound('pull request not found');
    return this.present(req, row, true);
  }

  private async present(scope: ViewScope, row: PullIssueRow, view: boolean): Promise<PullRequestDto> {
    if (view) await this.mergeability.onView(row);
    const pr = row.pullRequest;
    const [r, stats] = await Promise.all([
      this.renderer.prepare(scope, [row], null),
      pr.mergeBase
        ? diffStats(this.storage.pathFor(scope.repo), pr.mergeBase, pr.headSha).catch(() => undefined)
        : Promise.resolve(undefined),
    ]);
    return r.pull(row, stats);
  }

  async edit(req: EditPullRequest): Promise<PullRequestDto> {
    const actor = requireActor(req.actor);
    const row = await this.load(req.repo.id, req.index);
    if (!canModify(req, row.posterId)) throw DomainError.forbidden('user should have permission to edit the pull request');
    const allow = req.body?.allow_maintainer_edit;
    if (allow !== undefined && allow !== row.pullRequest.allowMaintainerEdit) {
      if (actor.id !== row.posterId) throw DomainError.forbidden('only the poster may change allow_maintainer_edit');
      row.pullRequest = await this.pulls.setAllowMaintainerEdit(row.pullRequest.id, allow);
    }
    const assignees = await this.assignees.resolve(req, req.body);
    const extras = { labels: req.body?.labels, milestone: req.body?.milestone };
    const current = (await this.extras.edit(req, actor, row, extras)) ? await this.load(req.repo.id, req.index) : row;
    const updated = await this.applyEdit(req, actor, current, req.body ?? {}, assignees);
    return this.present(req, updated as PullIssueRow, false);
  }

  /** Also via `PATCH …/issues/{index}`; reopening refreshes commits, refuses a duplicate open pull, checks at once. */
  async applyEdit(scope: ViewScope, actor: ActorDto, issue: IssueRow, body: EditPullBody, assigneeIds?: number[]): Promise<IssueRow> {
    const row = issue as PullIssueRow;
    if (!isPullRow(row)) throw DomainError.notFound('pull request not found');
    const pr = row.pullRequest;
    const dir = this.storage.pathFor(scope.repo);
    let reopenCommits: { baseSha: string; headSha: string; mergeBase: string } | undefined;
    if (body.state !== undefined && body.state !== row.state) {
      if (pr.merged) throw DomainError.conflict('cannot change the state of a merged pull request');
      if (body.state === 'open') {
        const [baseSha, headSha] = await Promise.all([resolveBranch(dir, pr.baseBranch), this.heads.currentHead(dir, pr)]);
        if (!baseSha || !headSha) {
          throw DomainError.conflict(`cannot reopen: branch "${!baseSha ? pr.baseBranch : pr.headBranch}" no longer exists`);
        }
        reopenCommits = { baseSha, headSha, mergeBase: (await mergeBase(dir, baseSha, headSha)) ?? '' };
      }
    }
    const r: PullRendering = await this.renderer.prepare(scope, [row], actor, assigneeIds ?? []);
    const now = new Date();
    const updated = await inTx(this.prisma, (tx) =>
      applyIssueEdit(tx, this.issues, row.id, actor.id, { ...body, assigneeIds }, now, {
        reload: async (t, id) => (await this.issues.findById(scope.repo.id, id, t)) as PullIssueRow,
        edited: (t, current, changes) =>
          this.outbox.record(t, PullRequestEvents.edited, {
            action: 'edited',
            number: current.index,
            pullRequest: r.pull(current),
            changes,
            repository: r.repository,
            sender: r.sender,
          }),
        assigneeChanged: (t, current, action, userId) =>
          this.outbox.record(t, PullRequestEvents[action], {
            action,
            number: current.index,
            pullRequest: r.pull(current),
            assignee: r.ctx.users.get(userId),
            repository: r.repository,
            sender: r.sender,
          }),
        beforeStateChange: async (t, current, state) => {
          if (current.pullRequest.merged) return false;
          if (state === 'open') {
            await this.refuseDuplicate(t, current.repoId, current.pullRequest, current.pullRequest.baseBranch, current.pullRequest.id);
            await this.pulls.setCommits(t, current.pullRequest.id, reopenCommits!);
          }
          return true;
        },
        stateChanged: (t, current, action) =>
          this.outbox.record(t, PullRequestEvents[action], {
            action,
            number: current.index,
            pullRequest: r.pull(current),
            repository: r.repository,
            sender: r.sender,
          }),
      }),
    );
    this.outbox.kick();
    if (reopenCommits && updated.state === 'open') {
      await updateRef(dir, pullHeadRef(updated.index), reopenCommits.headSha, undefined, 'cairn: pull request head').catch(() => undefined);
      // Reopening is never delayed (as Gitea's reopen path).
      await this.mergeability.queueCheck(updated.pullRequest).catch((err) =>
        this.logger.warn(`could not queue the check of pull ${updated.pullRequest.id}: ${(err as Error).message}`),
      );
    }
    return updated;
  }

  /** Gitea's `CloseBranchPulls`: open pulls from or into a deleted branch are closed by the deleter. */
  async closeBranchPulls(scope: ViewScope, actor: ActorDto, branch: string): Promise<void> {
    for (const pull of await this.pulls.findOpenTouching(scope.repo.id, branch)) {
      const where = pull.repoId === scope.repo.id ? scope : { ...(await this.views.systemScope(pull.repoId)), actor };
      await this.applyEdit(where, actor, pull, { state: 'closed' }).catch((err: Error) =>
        this.logger.warn(`pull request #${pull.index} of repository ${pull.repoId} not closed: ${err.message}`),
      );
    }
  }

  /** Gitea's `CloseRepoBranchesPulls`: a doomed repository's open pulls into others are closed by the deleter. */
  async closeHeadRepoPulls(repoId: number, actor: ActorDto | null): Promise<void> {
    if (!actor) return;
    for (const pull of await this.pulls.findOpenFromHeadRepo(repoId)) {
      await this.applyEdit({ ...(await this.views.systemScope(pull.repoId)), actor }, actor, pull, { state: 'closed' }).catch((err: Error) =>
        this.logger.warn(`pull request #${pull.index} of repository ${pull.repoId} not closed: ${err.message}`),
      );
    }
  }

  async isMerged(req: PullIndexRequest): Promise<boolean> {
    return (await this.load(req.repo.id, req.index)).pullRequest.merged;
  }

  /** The commits of the pull request (merge base to head), newest first, as Gitea's `Commit`. */
  async commits(req: PullPageRequest): Promise<Paginated<CommitDto>> {
    const row = await this.load(req.repo.id, req.index);
    const pr = row.pullRequest;
    const paging = toPaging(req.query);
    const dir = this.storage.pathFor(req.repo);
    const { commits, total } = await logRange(dir, pr.mergeBase || pr.baseSha, pr.headSha, paging.skip, paging.take);
    const [users, verifications] = await Promise.all([
      this.views.usersByEmail(commits.flatMap((c) => [c.authorEmail, c.committerEmail])),
      this.verifier.verifyCommits(req.repo, commits.map((c) => c.sha)),
    ]);
    const links = repoUrls(this.views.rootUrl, req.repo);
    const api = links.api;
    const items = commits.map((c): CommitDto => ({
      url: `${api}/git/commits/${c.sha}`,
      sha: c.sha,
      created: c.committerDate,
      html_url: links.commit(c.sha),
      commit: {
        url: `${api}/git/commits/${c.sha}`,
        author: { name: c.authorName, email: c.authorEmail, date: c.authorDate },
        committer: { name: c.committerName, email: c.committerEmail, date: c.committerDate },
        message: c.message,
        tree: { url: `${api}/git/trees/${c.tree}`, sha: c.tree, created: c.committerDate },
        verification: verifications.get(c.sha) ?? { ...NOT_SIGNED_VERIFICATION },
      },
      author: users.get(c.authorEmail.toLowerCase()) ?? null,
      committer: users.get(c.committerEmail.toLowerCase()) ?? null,
      parents: c.parents.map((p) => ({ url: `${api}/git/commits/${p}`, sha: p, created: c.committerDate })),
      files: null,
      stats: null,
    }));
    return { items, total };
  }

  /** The files the pull request changes (merge base to head), as Gitea's `ChangedFile`. */
  async files(req: PullPageRequest): Promise<Paginated<ChangedFileDto>> {
    const row = await this.load(req.repo.id, req.index);
    const pr = row.pullRequest;
    const paging = toPaging(req.query);
    const dir = this.storage.pathFor(req.repo);
    const all = await diffFiles(dir, pr.mergeBase || pr.baseSha, pr.headSha);
    const links = repoUrls(this.views.rootUrl, req.repo);
    const items = all.slice(paging.skip, paging.skip + paging.take).map((f): ChangedFileDto => ({
      filename: f.path,
      ...(f.previousPath ? { previous_filename: f.previousPath } : {}),
      status: FILE_STATUS[f.status] ?? 'changed',
      additions: f.additions,
      deletions: f.deletions,
      changes: f.additions + f.deletions,
      html_url: links.src('commit', pr.headSha, f.path),
      contents_url: `${links.api}/contents/${encodePathSegments(f.path)}?ref=${pr.headSha}`,
      raw_url: links.raw('commit', pr.headSha, f.path),
    }));
    return { items, total: all.length };
  }
}
