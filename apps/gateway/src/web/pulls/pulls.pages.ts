import {
  DomainError, ErrorCode, IssueSubjects, MERGE_DO_STYLES, PullSubjects, RepoSubjects, ReviewSubjects, UPDATE_STYLES, accessAtLeast,
  type ActorDto, type MergeDoStyle, type UpdateStyle,
} from '@cairn/contracts';
import type { RepoContext } from '../../access/repo-access.guard.js';
import { fragment, page, redirect, requireSignIn, type PageContext, type WebKit } from '../core/web-kit.js';
import { conversationView, listView, type ConversationModel } from './issues.view.js';
import { allowedMergeStyles, allowedUpdateStyles, headTarget, mergeBoxView, type MergeBoxModel } from './merge-box.view.js';
import { PullUpdateTracker, type PullUpdateKey } from './pull-update.tracker.js';

/** Merges and updates may take minutes (git work; a pending check runs first); the API waits as long. */
const LONG_RPC_MS = 300_000;
const LIST_LIMIT = 30;
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

function pickOne<T extends string>(value: unknown, allowed: readonly T[], what: string): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw DomainError.invalid(`${what} must be one of: ${allowed.join(', ')}`);
}

/**
 * Issue and pull-request pages (Gitea's `/{owner}/{repo}/issues…` and `/{owner}/{repo}/pulls…`): lists, pages with
 * their timeline and lock state, comment and lock forms, and the merge box with merge and update-branch forms. Pages
 * ask the services what the API asks for the same user, so they show nothing the API would not; repo-service keeps
 * the write rules, the pages only hide forms that would be refused. See docs/web-pulls.md.
 */
class PullsPages {
  constructor(
    private readonly web: WebKit,
    private readonly updates: PullUpdateTracker,
  ) {}

  register(): void {
    const { web } = this;
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
    }
  }

  /** The repository context with the access of the pages' unit: issues or pull requests. */
  private context(c: PageContext<RepoParams, unknown>, unit: Kind, actor: ActorDto | null = c.actor): Promise<RepoContext> {
    return this.web.repoAccess({ actor }, c.params.owner, c.params.repo, unit);
  }

  private repoPath(ctx: RepoContext): string {
    return `/${encodeURIComponent(ctx.repo.ownerName)}/${encodeURIComponent(ctx.repo.name)}`;
  }

  /** Whether to show write forms: repo-service's rule (write access or site admin), only to hide what would fail. */
  private canWrite(ctx: RepoContext): boolean {
    return ctx.actor !== null && (accessAtLeast(ctx.access, 'write') || ctx.actor.isAdmin);
  }

  private async list(c: PageContext<RepoParams, Record<string, string | undefined>>, kind: Kind) {
    const ctx = await this.context(c, kind);
    const state = c.query.state === 'closed' || c.query.state === 'all' ? c.query.state : 'open';
    const asked = Number(c.query.page);
    const pageNo = Number.isInteger(asked) && asked > 0 && asked < 100_000 ? asked : 1;
    const result = await this.web.rpc.send(IssueSubjects.list, { ...ctx, query: { state, type: kind, page: pageNo, limit: LIST_LIMIT } });
    const repoName = `${ctx.repo.ownerName}/${ctx.repo.name}`;
    const list = listView({ basePath: `${this.repoPath(ctx)}/${kind}`, kind, state, page: pageNo, limit: LIST_LIMIT }, result, repoName);
    return page('pulls/list', `${list.heading} · ${repoName}`, { list });
  }

  private async conversation(c: PageContext<unknown, unknown>, ctx: RepoContext, index: number, kind: Kind): Promise<ConversationModel> {
    const [issue, timeline] = await Promise.all([
      this.web.rpc.send(IssueSubjects.get, { ...ctx, index }),
      this.web.rpc.send(IssueSubjects.timeline, { ...ctx, index }),
    ]);
    return {
      issue, timeline: timeline.items, signedIn: c.actor !== null, canWrite: this.canWrite(ctx),
      path: `${this.repoPath(ctx)}/${kind}/${index}`, repoBase: this.repoPath(ctx), defaultBranch: ctx.repo.defaultBranch,
    };
  }

  private async issue(c: PageContext<IndexParams, unknown>) {
    const ctx = await this.context(c, 'issues');
    const index = parseIndex(c.params.index);
    const talk = await this.conversation(c, ctx, index, 'issues');
    // A pull request's number under /issues shows its pull-request page, as in Gitea.
    if (talk.issue.pull_request) return redirect(`${this.repoPath(ctx)}/pulls/${index}`);
    return page('pulls/issue', `${talk.issue.title} · Issue #${index} · ${ctx.repo.ownerName}/${ctx.repo.name}`, {
      talk: conversationView(talk), csrf: c.actor ? await c.csrfToken() : '',
    });
  }

  private updateKey(ctx: RepoContext, index: number): PullUpdateKey | null {
    return ctx.actor ? { repoId: ctx.repo.id, index, userId: ctx.actor.id } : null;
  }

  private async mergeBoxModel(ctx: RepoContext, index: number): Promise<MergeBoxModel> {
    const canWrite = this.canWrite(ctx);
    const key = this.updateKey(ctx, index);
    const [pr, repo, update, reviews] = await Promise.all([
      this.web.rpc.send(PullSubjects.get, { ...ctx, index, view: true }),
      canWrite ? this.web.rpc.send(RepoSubjects.repositoryGet, { ...ctx }) : Promise.resolve(null),
      key ? this.updates.take(key) : Promise.resolve(null),
      this.web.rpc.send(ReviewSubjects.summary, { ...ctx, index }),
    ]);
    return {
      pr, canWrite, update, reviews,
      pullPath: `${this.repoPath(ctx)}/pulls/${index}`,
      mergeStyles: repo ? allowedMergeStyles(repo) : [],
      defaults: { style: repo?.default_merge_style ?? 'merge', deleteBranch: repo?.default_delete_branch_after_merge ?? false },
      updateStyles: repo ? allowedUpdateStyles(repo) : [],
    };
  }

  private async pull(c: PageContext<IndexParams, unknown>) {
    const ctx = await this.context(c, 'pulls');
    const index = parseIndex(c.params.index);
    const [box, talk] = await Promise.all([this.mergeBoxModel(ctx, index), this.conversation(c, ctx, index, 'pulls')]);
    const { pr } = box;
    return page('pulls/pull', `${pr.title} · Pull Request #${index} · ${ctx.repo.ownerName}/${ctx.repo.name}`, {
      talk: conversationView(talk, pr.merged ? 'merged' : pr.state),
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

  /**
   * Starts the update detached from this request and answers at once: the page shows it running and reloads the merge
   * box until the outcome is in; whoever left sees the outcome on the next visit.
   */
  private async update(c: PageContext<IndexParams, unknown>) {
    const ctx = await this.writeContext(c, 'pulls');
    const index = parseIndex(c.params.index);
    const style: UpdateStyle = pickOne(c.form.style ?? 'merge', UPDATE_STYLES, 'style');
    await this.updates.start(
      this.updateKey(ctx, index)!, style,
      () => this.web.rpc.send(PullSubjects.update, { ...ctx, index, style }, { timeoutMs: LONG_RPC_MS }).then(() => undefined),
      (err) => (err instanceof DomainError ? err.message : 'internal error'),
    );
    return redirect(`${this.repoPath(ctx)}/pulls/${index}`);
  }

  private async comment(c: PageContext<IndexParams, unknown>, kind: Kind) {
    const ctx = await this.writeContext(c, kind);
    const index = parseIndex(c.params.index);
    const body = c.form.body ?? '';
    if (body.trim() === '') throw DomainError.invalid('the comment is empty');
    const comment = await this.web.rpc.send(IssueSubjects.commentCreate, { ...ctx, index, body: { body } });
    return redirect(`${this.repoPath(ctx)}/${kind}/${index}#issuecomment-${comment.id}`);
  }

  private async lock(c: PageContext<IndexParams, unknown>, kind: Kind, lock: boolean) {
    const ctx = await this.writeContext(c, kind);
    const index = parseIndex(c.params.index);
    if (lock) await this.web.rpc.send(IssueSubjects.lock, { ...ctx, index, body: null });
    else await this.web.rpc.send(IssueSubjects.unlock, { ...ctx, index });
    return redirect(`${this.repoPath(ctx)}/${kind}/${index}`);
  }
}

/** The issues and pull-requests area. */
export function registerPullsPages(web: WebKit): void {
  const { redis, common } = web.deps;
  new PullsPages(web, new PullUpdateTracker(() => redis.client, common.queuePrefix)).register();
}
