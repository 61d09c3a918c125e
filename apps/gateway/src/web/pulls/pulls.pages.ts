import {
  DomainError, ErrorCode, IdentitySubjects, IssueSubjects, LabelSubjects, MERGE_DO_STYLES, MilestoneSubjects, PullSubjects,
  RepoSubjects, ReviewSubjects, UPDATE_STYLES, allowedMergeStyles, allowedUpdateStyles,
  type ActorDto, type LabelDto, type ListIssuesQuery, type MergeDoStyle, type MilestoneDto, type UpdateStyle, type UserDto,
} from '@cairn/contracts';
import type { RepoContext } from '../../access/repo-access.guard.js';
import { pageOf } from '../core/paging.js';
import { fragment, page, redirect, requireSignIn, type PageContext, type PageResult, type WebKit } from '../core/web-kit.js';
import { RepoViews } from '../repo/repo-views.js';
import { formRejection } from '../settings/form-error.js';
import { conversationView, listView, type ConversationModel, type ListChoices, type ListFilters } from './issues.view.js';
import { headTarget, mergeBoxView, type MergeBoxModel } from './merge-box.view.js';
import { PullUpdateTracker, type PullUpdateKey } from './pull-update.tracker.js';
import { registerTrackerPages } from './tracker.pages.js';
import { canTriage, canWrite, requireWrite } from '../repo/write-forms.js';

/** Merges and updates may take minutes (git work; a pending check runs first); the API waits as long. */
const LONG_RPC_MS = 300_000;
const LIST_LIMIT = 30;
/** Labels, milestones and reviews one page asks for (the API's largest page). */
const CHOICES_LIMIT = 50;
/** Merge refusals shown on the pull request's page rather than as an error page. */
const MERGE_REFUSALS: ReadonlySet<ErrorCode> = new Set([ErrorCode.CONFLICT, ErrorCode.NOT_ALLOWED, ErrorCode.UNPROCESSABLE]);

interface RepoParams { owner: string; repo: string }
interface IndexParams extends RepoParams { index: string }
type Kind = 'issues' | 'pulls';

/** A positive issue number from the path, or a 404 (as for a missing issue). */
function parseIndex(raw: string): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw DomainError.notFound('not found');
  return Number(raw);
}

function idOf(raw: string | undefined): number | null {
  return raw && /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}

/** Ids from repeated fields and/or comma-separated values (Gitea's `label_ids=1,2`; checkboxes send one each). */
function idsOf(values: string[]): number[] {
  const ids = values.flatMap((v) => v.split(',')).map((v) => idOf(v.trim())).filter((n): n is number => n !== null);
  return [...new Set(ids)];
}

function pickOne<T extends string>(value: unknown, allowed: readonly T[], what: string): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw DomainError.invalid(`${what} must be one of: ${allowed.join(', ')}`);
}

/** The services keep the write rules; the pages only hide forms that would be refused (docs/web-pulls.md). */
class PullsPages {
  private readonly repos: RepoViews;

  constructor(
    private readonly web: WebKit,
    private readonly updates: PullUpdateTracker,
  ) {
    this.repos = new RepoViews(web.rpc);
  }

  register(): void {
    const { web } = this;
    web.get<RepoParams>('/:owner/:repo/issues/new', (c) => this.newIssue(c));
    web.post<RepoParams>('/:owner/:repo/issues/new', (c) => this.createIssue(c));
    web.get<RepoParams>('/:owner/:repo/issues', (c) => this.list(c, 'issues'));
    web.get<RepoParams>('/:owner/:repo/pulls', (c) => this.list(c, 'pulls'));
    web.get<IndexParams>('/:owner/:repo/issues/:index', (c) => this.issue(c));
    web.get<IndexParams>('/:owner/:repo/pulls/:index', (c) => this.pull(c));
    web.get<IndexParams>('/:owner/:repo/pulls/:index/merge_box', (c) => this.mergeBox(c));
    web.post<IndexParams>('/:owner/:repo/pulls/:index/merge', (c) => this.merge(c));
    web.post<IndexParams>('/:owner/:repo/pulls/:index/update', (c) => this.update(c));
    for (const kind of ['issues', 'pulls'] as const) {
      web.post<IndexParams>(`/:owner/:repo/${kind}/:index/comments`, (c) => this.comment(c, kind));
      web.post<IndexParams>(`/:owner/:repo/${kind}/:index/lock`, (c) => this.lock(c, kind, true));
      web.post<IndexParams>(`/:owner/:repo/${kind}/:index/unlock`, (c) => this.lock(c, kind, false));
      web.post<IndexParams>(`/:owner/:repo/${kind}/:index/title`, (c) => this.editTitle(c, kind));
      web.post<IndexParams>(`/:owner/:repo/${kind}/:index/labels`, (c) => this.setLabels(c, kind));
      web.post<IndexParams>(`/:owner/:repo/${kind}/:index/milestone`, (c) => this.setMilestone(c, kind));
      web.post<IndexParams>(`/:owner/:repo/${kind}/:index/assignees`, (c) => this.setAssignees(c, kind));
    }
  }

  private context(c: PageContext<RepoParams, unknown>, unit: Kind, actor: ActorDto | null = c.actor): Promise<RepoContext> {
    return this.web.repoAccess({ actor }, c.params.owner, c.params.repo, unit);
  }

  private repoPath(ctx: RepoContext): string {
    return `/${encodeURIComponent(ctx.repo.ownerName)}/${encodeURIComponent(ctx.repo.name)}`;
  }

  private async choices(ctx: RepoContext, milestones: 'open' | 'all'): Promise<{ labels: LabelDto[]; milestones: MilestoneDto[]; assignees: UserDto[] }> {
    const [labels, ms, assignees] = await Promise.all([
      this.web.rpc.send(LabelSubjects.list, { ...ctx, query: { page: 1, limit: CHOICES_LIMIT } }),
      this.web.rpc.send(MilestoneSubjects.list, { ...ctx, query: { state: milestones, page: 1, limit: CHOICES_LIMIT } }),
      this.web.rpc.send(IssueSubjects.assignees, { ...ctx }),
    ]);
    return { labels: labels.items, milestones: ms.items, assignees };
  }

  /** A user by id (filters name users by id, as Gitea's do), or null when there is none. */
  private async userById(id: number | null): Promise<UserDto | null> {
    if (id === null) return null;
    const found = await this.web.rpc.send(IdentitySubjects.userLookup, { ids: [id] });
    return found.users[0] ?? null;
  }

  private async list(c: PageContext<RepoParams, Record<string, string | undefined>>, kind: Kind) {
    const ctx = await this.context(c, kind);
    const state = c.query.state === 'closed' || c.query.state === 'all' ? c.query.state : 'open';
    const pageNo = pageOf(c.query);
    const filters: ListFilters = {
      labels: idsOf(c.query.labels ? [c.query.labels] : []),
      milestone: idOf(c.query.milestone), assignee: idOf(c.query.assignee), poster: idOf(c.query.poster),
      q: (c.query.q ?? '').trim().slice(0, 255),
    };
    const [header, options, poster] = await Promise.all([
      this.repos.header(ctx), this.choices(ctx, 'all'), this.userById(filters.poster),
    ]);
    const assignee = options.assignees.find((u) => u.id === filters.assignee) ?? (await this.userById(filters.assignee));
    const choices: ListChoices = { ...options, poster };
    // The service filters by names and logins; an id that names nothing matches nothing.
    const labelNames = filters.labels.map((id) => options.labels.find((l) => l.id === id)?.name);
    const unmatched = labelNames.includes(undefined) || (filters.poster !== null && !poster) || (filters.assignee !== null && !assignee);
    const query: ListIssuesQuery = {
      type: kind, limit: LIST_LIMIT,
      ...(labelNames.length ? { labels: labelNames.join(',') } : {}),
      ...(filters.milestone !== null ? { milestones: String(filters.milestone) } : {}),
      ...(assignee ? { assigned_by: assignee.login } : {}),
      ...(poster ? { created_by: poster.login } : {}),
      ...(filters.q ? { q: filters.q } : {}),
    };
    const count = (s: 'open' | 'closed') => unmatched
      ? Promise.resolve({ items: [], total: 0 })
      : this.web.rpc.send(IssueSubjects.list, { ...ctx, query: { ...query, state: s, page: 1, limit: 1 } });
    const [result, open, closed] = await Promise.all([
      unmatched ? Promise.resolve({ items: [], total: 0 }) : this.web.rpc.send(IssueSubjects.list, { ...ctx, query: { ...query, state, page: pageNo } }),
      count('open'), count('closed'),
    ]);
    const list = listView(
      { basePath: `${this.repoPath(ctx)}/${kind}`, kind, state, page: pageNo, limit: LIST_LIMIT, filters },
      result, { open: open.total, closed: closed.total }, choices, ctx.actor !== null,
    );
    return page('pulls/list', `${list.heading} · ${header.fullName}`, { list, header });
  }

  private async newIssue(c: PageContext<RepoParams, unknown>) {
    const ctx = await this.context(c, 'issues', requireSignIn(c));
    return this.newIssueForm(c, ctx, { title: '', content: '', labelIds: [], milestoneId: 0, assigneeIds: [] });
  }

  private async newIssueForm(
    c: PageContext<RepoParams, unknown>, ctx: RepoContext,
    form: { title: string; content: string; labelIds: number[]; milestoneId: number; assigneeIds: number[] },
    failure?: { error: string; status: number },
  ): Promise<PageResult> {
    // Labels, milestone and assignees are set only for writers (repo-service ignores them otherwise): others see none.
    const [header, choices] = await Promise.all([this.repos.header(ctx), canTriage(ctx) ? this.choices(ctx, 'open') : null]);
    return page('pulls/new', `New issue · ${header.fullName}`, {
      header, choices, form, action: `${this.repoPath(ctx)}/issues/new`, error: failure?.error, csrf: await c.csrfToken(),
    }, failure?.status ?? 200);
  }

  private async createIssue(c: PageContext<RepoParams, unknown>) {
    const ctx = await this.writeContext(c, 'issues');
    const form = {
      title: (c.form.title ?? '').trim(), content: c.form.content ?? c.form.body ?? '',
      labelIds: idsOf(c.formAll('label_ids')), milestoneId: idOf(c.form.milestone_id) ?? 0, assigneeIds: idsOf(c.formAll('assignee_ids')),
    };
    if (!form.title) return this.newIssueForm(c, ctx, form, { error: 'The title is empty.', status: 422 });
    try {
      const assignees = await this.loginsOf(ctx, form.assigneeIds);
      const issue = await this.web.rpc.send(IssueSubjects.create, {
        ...ctx,
        body: {
          title: form.title.slice(0, 255), body: form.content,
          ...(form.labelIds.length ? { labels: form.labelIds } : {}),
          ...(form.milestoneId ? { milestone: form.milestoneId } : {}),
          ...(assignees.length ? { assignees } : {}),
        },
      });
      return redirect(`${this.repoPath(ctx)}/issues/${issue.number}`);
    } catch (err) {
      return this.newIssueForm(c, ctx, form, formRejection(err, { notFoundIsInput: true }));
    }
  }

  /** The logins of assignable users by id (the API assigns by login); an id that is not assignable is refused. */
  private async loginsOf(ctx: RepoContext, ids: number[]): Promise<string[]> {
    if (!ids.length) return [];
    const assignable = await this.web.rpc.send(IssueSubjects.assignees, { ...ctx });
    return ids.map((id) => {
      const user = assignable.find((u) => u.id === id);
      if (!user) throw DomainError.unprocessable(`user ${id} cannot be assigned in this repository`);
      return user.login;
    });
  }

  private async conversation(c: PageContext<unknown, unknown>, ctx: RepoContext, index: number, kind: Kind): Promise<ConversationModel> {
    // The pickers and lock: where repo-service applies them (`mayTriage`); the services decide again.
    const canWrite = canTriage(ctx);
    const [issue, timeline, reviews, choices] = await Promise.all([
      this.web.rpc.send(IssueSubjects.get, { ...ctx, index }),
      this.web.rpc.send(IssueSubjects.timeline, { ...ctx, index }),
      kind === 'pulls'
        ? this.web.rpc.send(ReviewSubjects.list, { ...ctx, index, query: { page: 1, limit: CHOICES_LIMIT } }).then((r) => r.items)
        : Promise.resolve([]),
      canWrite ? this.choices(ctx, 'open') : Promise.resolve(null),
    ]);
    return {
      issue, timeline: timeline.items, reviews, signedIn: c.actor !== null, viewerId: c.actor?.id ?? null, canWrite, choices,
      path: `${this.repoPath(ctx)}/${kind}/${index}`, repoBase: this.repoPath(ctx), defaultBranch: ctx.repo.defaultBranch,
    };
  }

  private async issue(c: PageContext<IndexParams, unknown>) {
    const ctx = await this.context(c, 'issues');
    const index = parseIndex(c.params.index);
    const [talk, header] = await Promise.all([this.conversation(c, ctx, index, 'issues'), this.repos.header(ctx)]);
    // A pull request's number under /issues shows its pull-request page, as in Gitea.
    if (talk.issue.pull_request) return redirect(`${this.repoPath(ctx)}/pulls/${index}`);
    return page('pulls/issue', `${talk.issue.title} · Issue #${index} · ${ctx.repo.ownerName}/${ctx.repo.name}`, {
      talk: conversationView(talk), header, csrf: c.actor ? await c.csrfToken() : '',
    });
  }

  private updateKey(ctx: RepoContext, index: number): PullUpdateKey | null {
    return ctx.actor ? { repoId: ctx.repo.id, index, userId: ctx.actor.id } : null;
  }

  private async mergeBoxModel(ctx: RepoContext, index: number): Promise<MergeBoxModel> {
    // Merge and update-branch share their entry's level; neither is offered in an archived repository.
    const mayMerge = canWrite(ctx, PullSubjects.merge);
    const key = this.updateKey(ctx, index);
    const [pr, repo, update, reviews] = await Promise.all([
      this.web.rpc.send(PullSubjects.get, { ...ctx, index, view: true }),
      mayMerge ? this.web.rpc.send(RepoSubjects.repositoryGet, { ...ctx }) : Promise.resolve(null),
      key ? this.updates.take(key) : Promise.resolve(null),
      this.web.rpc.send(ReviewSubjects.summary, { ...ctx, index }),
    ]);
    return {
      pr, canWrite: mayMerge, update, reviews,
      pullPath: `${this.repoPath(ctx)}/pulls/${index}`,
      mergeStyles: repo ? allowedMergeStyles(repo) : [],
      defaults: { style: repo?.default_merge_style ?? 'merge', deleteBranch: repo?.default_delete_branch_after_merge ?? false },
      updateStyles: repo ? allowedUpdateStyles(repo) : [],
    };
  }

  private async pull(c: PageContext<IndexParams, unknown>) {
    const ctx = await this.context(c, 'pulls');
    const index = parseIndex(c.params.index);
    const [box, talk, header] = await Promise.all([
      this.mergeBoxModel(ctx, index), this.conversation(c, ctx, index, 'pulls'), this.repos.header(ctx),
    ]);
    const { pr } = box;
    return page('pulls/pull', `${pr.title} · Pull Request #${index} · ${ctx.repo.ownerName}/${ctx.repo.name}`, {
      talk: conversationView(talk, pr.merged ? 'merged' : pr.state), header,
      box: mergeBoxView(box),
      author: pr.user.login, head: headTarget(pr), base: pr.base.label,
      csrf: c.actor ? await c.csrfToken() : '',
    });
  }

  private async mergeBox(c: PageContext<IndexParams, unknown>) {
    const ctx = await this.context(c, 'pulls');
    const box = await this.mergeBoxModel(ctx, parseIndex(c.params.index));
    return fragment('pulls/merge-box', { box: mergeBoxView(box) });
  }

  /** A form's repository context: signed in (the kit has checked the CSRF token already). */
  private async writeContext(c: PageContext<RepoParams, unknown>, unit: Kind): Promise<RepoContext> {
    return this.context(c, unit, requireSignIn(c));
  }

  private async merge(c: PageContext<IndexParams, unknown>) {
    const ctx = await this.writeContext(c, 'pulls');
    requireWrite(ctx, PullSubjects.merge);
    const index = parseIndex(c.params.index);
    const Do: MergeDoStyle = pickOne(c.form.Do, MERGE_DO_STYLES, 'Do');
    const head = c.form.head_commit_id;
    try {
      await this.web.rpc.send(PullSubjects.merge, {
        ...ctx, index,
        body: {
          Do, ...(head ? { head_commit_id: head } : {}), delete_branch_after_merge: c.form.delete_branch_after_merge === 'true',
          // Gitea's form names; empty ones leave repo-service's default title and message.
          ...(c.form.merge_title_field?.trim() ? { MergeTitleField: c.form.merge_title_field } : {}),
          ...(c.form.merge_message_field?.trim() ? { MergeMessageField: c.form.merge_message_field } : {}),
        },
      }, { timeoutMs: LONG_RPC_MS });
    } catch (err) {
      // A refusal the user can act on (a newer push, a conflict, not mergeable) goes back to the page, as Gitea's flash.
      if (!(err instanceof DomainError) || !MERGE_REFUSALS.has(err.code)) throw err;
      await c.flash('error', `Not merged: ${err.message}`);
    }
    return redirect(`${this.repoPath(ctx)}/pulls/${index}`);
  }

  /** Detached from this request: the page reloads the merge box until the outcome is in. */
  private async update(c: PageContext<IndexParams, unknown>) {
    const ctx = await this.writeContext(c, 'pulls');
    requireWrite(ctx, PullSubjects.update);
    const index = parseIndex(c.params.index);
    const style: UpdateStyle = pickOne(c.form.style ?? 'merge', UPDATE_STYLES, 'style');
    await this.updates.start(
      this.updateKey(ctx, index)!, style,
      () => this.web.rpc.send(PullSubjects.update, { ...ctx, index, style }, { timeoutMs: LONG_RPC_MS }).then(() => undefined),
      (err) => (err instanceof DomainError ? err.message : 'internal error'),
    );
    return redirect(`${this.repoPath(ctx)}/pulls/${index}`);
  }

  /** Gitea's comment form (`content`, older `body`; `status`): the comment goes first, then the state change. */
  private async comment(c: PageContext<IndexParams, unknown>, kind: Kind) {
    const ctx = await this.writeContext(c, kind);
    const index = parseIndex(c.params.index);
    const body = c.form.content ?? c.form.body ?? '';
    const status = c.form.status === undefined || c.form.status === '' ? null : pickOne(c.form.status, ['close', 'reopen'] as const, 'status');
    if (body.trim() === '' && !status) throw DomainError.unprocessable('the comment is empty');
    let anchor = '';
    if (body.trim() !== '') {
      const comment = await this.web.rpc.send(IssueSubjects.commentCreate, { ...ctx, index, body: { body } });
      anchor = `#issuecomment-${comment.id}`;
    }
    if (status) {
      await this.web.rpc.send(IssueSubjects.edit, { ...ctx, index, body: { state: status === 'close' ? 'closed' : 'open' } });
    }
    return redirect(`${this.repoPath(ctx)}/${kind}/${index}${anchor}`);
  }

  private async editTitle(c: PageContext<IndexParams, unknown>, kind: Kind) {
    const ctx = await this.writeContext(c, kind);
    const index = parseIndex(c.params.index);
    const title = (c.form.title ?? '').trim();
    if (!title) throw DomainError.unprocessable('the title is empty');
    await this.web.rpc.send(IssueSubjects.edit, { ...ctx, index, body: { title: title.slice(0, 255) } });
    return redirect(`${this.repoPath(ctx)}/${kind}/${index}`);
  }

  /** The sidebar's label form: exactly the checked labels (`label_ids`), through the API's replace. */
  private async setLabels(c: PageContext<IndexParams, unknown>, kind: Kind) {
    const ctx = await this.writeContext(c, kind);
    const index = parseIndex(c.params.index);
    await this.web.rpc.send(LabelSubjects.issueReplace, { ...ctx, index, body: { labels: idsOf(c.formAll('label_ids')) } });
    return redirect(`${this.repoPath(ctx)}/${kind}/${index}`);
  }

  private async setMilestone(c: PageContext<IndexParams, unknown>, kind: Kind) {
    const ctx = await this.writeContext(c, kind);
    const index = parseIndex(c.params.index);
    await this.web.rpc.send(IssueSubjects.edit, { ...ctx, index, body: { milestone: idOf(c.form.milestone_id) ?? 0 } });
    return redirect(`${this.repoPath(ctx)}/${kind}/${index}`);
  }

  private async setAssignees(c: PageContext<IndexParams, unknown>, kind: Kind) {
    const ctx = await this.writeContext(c, kind);
    const index = parseIndex(c.params.index);
    const assignees = await this.loginsOf(ctx, idsOf(c.formAll('assignee_ids')));
    await this.web.rpc.send(IssueSubjects.edit, { ...ctx, index, body: { assignees } });
    return redirect(`${this.repoPath(ctx)}/${kind}/${index}`);
  }

  private async lock(c: PageContext<IndexParams, unknown>, kind: Kind, lock: boolean) {
    const ctx = await this.writeContext(c, kind);
    const index = parseIndex(c.params.index);
    if (lock) await this.web.rpc.send(IssueSubjects.lock, { ...ctx, index, body: null });
    else await this.web.rpc.send(IssueSubjects.unlock, { ...ctx, index });
    return redirect(`${this.repoPath(ctx)}/${kind}/${index}`);
  }
}

export function registerPullsPages(web: WebKit): void {
  const { redis, common } = web.deps;
  new PullsPages(web, new PullUpdateTracker(() => redis.client, common.queuePrefix)).register();
  registerTrackerPages(web);
}
