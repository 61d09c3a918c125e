import {
  DomainError, ErrorCode, IssueSubjects, MERGE_DO_STYLES, PullSubjects, RepoSubjects, UPDATE_STYLES, accessAtLeast,
  type ActorDto, type MergeDoStyle, type UpdateStyle,
} from '@cairn/contracts';
import type { RpcClient } from '@cairn/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resolveRepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import type { GatewaySettings } from '../../config/gateway-settings.js';
import { renderIssueList, renderIssuePage, renderPullPage, type ConversationModel, type ListModel } from './issues.view.js';
import { allowedMergeStyles, allowedUpdateStyles, renderMergeBox, type MergeBoxModel } from './merge-box.view.js';
import type { PullUpdateKey, PullUpdateTracker } from './pull-update.tracker.js';
import type { WebHost } from './web-host.js';

/** Merges and updates may take minutes (git work; a pending check runs first); the API waits as long. */
const LONG_RPC_MS = 300_000;
const LIST_LIMIT = 30;

interface RepoParams { owner: string; repo: string }
interface IndexParams extends RepoParams { index: string }
type Form = Record<string, unknown>;

/** A positive issue number from the path, or a 404 (as for a missing issue). */
function parseIndex(raw: string): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw DomainError.notFound('not found');
  return Number(raw);
}

function formField(body: unknown, name: string): unknown {
  return body && typeof body === 'object' ? (body as Form)[name] : undefined;
}

function pickOne<T extends string>(value: unknown, allowed: readonly T[], what: string): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw DomainError.invalid(`${what} must be one of: ${allowed.join(', ')}`);
}

/**
 * Issue and pull-request pages (Gitea's `/{owner}/{repo}/issues…` and `/{owner}/{repo}/pulls…`): lists, pages with
 * their timeline and lock state, comment/lock forms, and the merge box with merge and update-branch forms. Every
 * page asks the services exactly what the API would for the same user, so it shows nothing the API would not.
 */
export class PullsPages {
  constructor(
    private readonly rpc: RpcClient,
    private readonly settings: GatewaySettings,
    private readonly host: WebHost,
    private readonly updates: PullUpdateTracker,
  ) {}

  register(fastify: FastifyInstance): void {
    fastify.get<{ Params: RepoParams; Querystring: Form }>('/:owner/:repo/issues', (q, r) => this.guard(q, r, () => this.list(q, r, 'issues')));
    fastify.get<{ Params: RepoParams; Querystring: Form }>('/:owner/:repo/pulls', (q, r) => this.guard(q, r, () => this.list(q, r, 'pulls')));
    fastify.get<{ Params: IndexParams }>('/:owner/:repo/issues/:index', (q, r) => this.guard(q, r, () => this.issue(q, r)));
    fastify.get<{ Params: IndexParams }>('/:owner/:repo/pulls/:index', (q, r) => this.guard(q, r, () => this.pull(q, r)));
    fastify.get<{ Params: IndexParams }>('/:owner/:repo/pulls/:index/merge_box', (q, r) => this.guard(q, r, () => this.mergeBox(q, r)));
    fastify.post<{ Params: IndexParams }>('/:owner/:repo/pulls/:index/merge', (q, r) => this.guard(q, r, () => this.merge(q, r)));
    fastify.post<{ Params: IndexParams }>('/:owner/:repo/pulls/:index/update', (q, r) => this.guard(q, r, () => this.update(q, r)));
    for (const kind of ['issues', 'pulls'] as const) {
      fastify.post<{ Params: IndexParams }>(`/:owner/:repo/${kind}/:index/comments`, (q, r) => this.guard(q, r, () => this.comment(q, r, kind)));
      fastify.post<{ Params: IndexParams }>(`/:owner/:repo/${kind}/:index/lock`, (q, r) => this.guard(q, r, () => this.lock(q, r, kind, true)));
      fastify.post<{ Params: IndexParams }>(`/:owner/:repo/${kind}/:index/unlock`, (q, r) => this.guard(q, r, () => this.lock(q, r, kind, false)));
    }
  }

  private async guard(req: FastifyRequest, reply: FastifyReply, run: () => Promise<void>): Promise<void> {
    void reply.header('cache-control', 'no-store');
    try {
      await run();
    } catch (err) {
      await this.host.sendError(req, reply, err);
    }
  }

  private async context(req: FastifyRequest<{ Params: RepoParams }>): Promise<RepoContext> {
    const actor = await this.host.actor(req);
    return resolveRepoAccess(this.rpc, this.settings, actor, req.params.owner, req.params.repo);
  }

  private repoPath(ctx: RepoContext): string {
    return `/${encodeURIComponent(ctx.repo.ownerName)}/${encodeURIComponent(ctx.repo.name)}`;
  }

  /** Whether to show write forms; repo-service decides (write access or site admin), this only hides what would fail. */
  private canWrite(ctx: RepoContext): boolean {
    return ctx.actor !== null && (accessAtLeast(ctx.access, 'write') || ctx.actor.isAdmin);
  }

  private async list(req: FastifyRequest<{ Params: RepoParams; Querystring: Form }>, reply: FastifyReply, kind: 'issues' | 'pulls'): Promise<void> {
    const ctx = await this.context(req);
    const rawState = req.query.state;
    const state = rawState === 'closed' || rawState === 'all' ? rawState : 'open';
    const rawPage = Number(req.query.page);
    const page = Number.isInteger(rawPage) && rawPage > 0 && rawPage < 100_000 ? rawPage : 1;
    const result = await this.rpc.send(IssueSubjects.list, { ...ctx, query: { state, type: kind, page, limit: LIST_LIMIT } });
    const model: ListModel = { basePath: `${this.repoPath(ctx)}/${kind}`, kind, state, page, limit: LIST_LIMIT };
    const repoName = `${ctx.repo.ownerName}/${ctx.repo.name}`;
    await this.host.sendPage(req, reply, {
      title: `${kind === 'pulls' ? 'Pull requests' : 'Issues'} · ${repoName}`,
      body: renderIssueList(model, result, repoName),
    });
  }

  private async conversation(req: FastifyRequest, ctx: RepoContext, index: number, kind: 'issues' | 'pulls'): Promise<ConversationModel> {
    const [issue, timeline, csrfToken] = await Promise.all([
      this.rpc.send(IssueSubjects.get, { ...ctx, index }),
      this.rpc.send(IssueSubjects.timeline, { ...ctx, index }),
      this.host.csrfToken(req),
    ]);
    return {
      issue, timeline: timeline.items, csrfToken, signedIn: ctx.actor !== null, canWrite: this.canWrite(ctx),
      path: `${this.repoPath(ctx)}/${kind}/${index}`,
    };
  }

  private async issue(req: FastifyRequest<{ Params: IndexParams }>, reply: FastifyReply): Promise<void> {
    const ctx = await this.context(req);
    const index = parseIndex(req.params.index);
    const talk = await this.conversation(req, ctx, index, 'issues');
    // A pull request's number under /issues shows its pull-request page, as in Gitea.
    if (talk.issue.pull_request) return void (await reply.redirect(`${this.repoPath(ctx)}/pulls/${index}`, 303));
    await this.host.sendPage(req, reply, {
      title: `${talk.issue.title} · Issue #${index} · ${ctx.repo.ownerName}/${ctx.repo.name}`,
      body: renderIssuePage(talk),
    });
  }

  private updateKey(ctx: RepoContext, index: number): PullUpdateKey | null {
    return ctx.actor ? { repoId: ctx.repo.id, index, userId: ctx.actor.id } : null;
  }

  private async mergeBoxModel(req: FastifyRequest, ctx: RepoContext, index: number): Promise<MergeBoxModel> {
    const canWrite = this.canWrite(ctx);
    const key = this.updateKey(ctx, index);
    const [pr, repo, csrfToken, update] = await Promise.all([
      this.rpc.send(PullSubjects.get, { ...ctx, index, view: true }),
      canWrite ? this.rpc.send(RepoSubjects.repositoryGet, { ...ctx }) : Promise.resolve(null),
      this.host.csrfToken(req),
      key ? this.updates.take(key) : Promise.resolve(null),
    ]);
    return {
      pr, canWrite, csrfToken, update,
      pullPath: `${this.repoPath(ctx)}/pulls/${index}`,
      mergeStyles: repo ? allowedMergeStyles(repo) : [],
      updateStyles: repo ? allowedUpdateStyles(repo) : [],
    };
  }

  private async pull(req: FastifyRequest<{ Params: IndexParams }>, reply: FastifyReply): Promise<void> {
    const ctx = await this.context(req);
    const index = parseIndex(req.params.index);
    const [box, talk] = await Promise.all([this.mergeBoxModel(req, ctx, index), this.conversation(req, ctx, index, 'pulls')]);
    await this.host.sendPage(req, reply, {
      title: `${box.pr.title} · Pull Request #${index} · ${ctx.repo.ownerName}/${ctx.repo.name}`,
      body: renderPullPage(box.pr, box, talk),
    });
  }

  private async mergeBox(req: FastifyRequest<{ Params: IndexParams }>, reply: FastifyReply): Promise<void> {
    const ctx = await this.context(req);
    const box = await this.mergeBoxModel(req, ctx, parseIndex(req.params.index));
    await reply.type('text/html; charset=utf-8').send(renderMergeBox(box));
  }

  /** Checks the form's CSRF token and that someone is signed in; the services check the access itself. */
  private async writeContext(req: FastifyRequest<{ Params: RepoParams }>): Promise<RepoContext & { actor: ActorDto }> {
    await this.host.verifyCsrf(req, formField(req.body, '_csrf'));
    const ctx = await this.context(req);
    if (!ctx.actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'sign in first');
    return ctx as RepoContext & { actor: ActorDto };
  }

  private async merge(req: FastifyRequest<{ Params: IndexParams }>, reply: FastifyReply): Promise<void> {
    const ctx = await this.writeContext(req);
    const index = parseIndex(req.params.index);
    const Do: MergeDoStyle = pickOne(formField(req.body, 'Do'), MERGE_DO_STYLES, 'Do');
    const head = formField(req.body, 'head_commit_id');
    await this.rpc.send(PullSubjects.merge, {
      ...ctx, index,
      body: {
        Do,
        ...(typeof head === 'string' && head ? { head_commit_id: head } : {}),
        delete_branch_after_merge: formField(req.body, 'delete_branch_after_merge') === 'true',
      },
    }, { timeoutMs: LONG_RPC_MS });
    await reply.redirect(`${this.repoPath(ctx)}/pulls/${index}`, 303);
  }

  /**
   * Starts the update detached from this request and answers at once: the page then shows it running and reloads
   * the merge box until the outcome is in; a user who left sees the outcome on the next visit.
   */
  private async update(req: FastifyRequest<{ Params: IndexParams }>, reply: FastifyReply): Promise<void> {
    const ctx = await this.writeContext(req);
    const index = parseIndex(req.params.index);
    const style: UpdateStyle = pickOne(formField(req.body, 'style') ?? 'merge', UPDATE_STYLES, 'style');
    const key = this.updateKey(ctx, index)!;
    await this.updates.start(
      key, style,
      () => this.rpc.send(PullSubjects.update, { ...ctx, index, style }, { timeoutMs: LONG_RPC_MS }).then(() => undefined),
      (err) => (err instanceof DomainError ? err.message : 'internal error'),
    );
    await reply.redirect(`${this.repoPath(ctx)}/pulls/${index}`, 303);
  }

  private async comment(req: FastifyRequest<{ Params: IndexParams }>, reply: FastifyReply, kind: 'issues' | 'pulls'): Promise<void> {
    const ctx = await this.writeContext(req);
    const index = parseIndex(req.params.index);
    const body = formField(req.body, 'body');
    if (typeof body !== 'string' || body.trim() === '') throw DomainError.invalid('the comment is empty');
    const comment = await this.rpc.send(IssueSubjects.commentCreate, { ...ctx, index, body: { body } });
    await reply.redirect(`${this.repoPath(ctx)}/${kind}/${index}#issuecomment-${comment.id}`, 303);
  }

  private async lock(req: FastifyRequest<{ Params: IndexParams }>, reply: FastifyReply, kind: 'issues' | 'pulls', lock: boolean): Promise<void> {
    const ctx = await this.writeContext(req);
    const index = parseIndex(req.params.index);
    if (lock) await this.rpc.send(IssueSubjects.lock, { ...ctx, index, body: null });
    else await this.rpc.send(IssueSubjects.unlock, { ...ctx, index });
    await reply.redirect(`${this.repoPath(ctx)}/${kind}/${index}`, 303);
  }
}
