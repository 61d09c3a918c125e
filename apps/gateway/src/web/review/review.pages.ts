import { DomainError, ErrorCode, IssueSubjects, PullSubjects, RepoSubjects, ReviewSubjects, isObjectId } from '@cairn/contracts';
import type { RepoContext } from '../../access/repo-access.guard.js';
import { fragment, page, redirect, requireSignIn, type PageContext, type WebKit } from '../core/web-kit.js';
import { diffStyleOf, excerptRows, fileAnchor, lineAnchor } from '../repo/diff-view.js';
import { FILE_VIEW_MAX_BYTES, siteOf } from '../repo/repo-views.js';
import { compareUrl, idsField, linePlace, milestoneField, reviewEvent, splitCompare } from './review-forms.js';
import { ReviewViews } from './review-views.js';

interface RepoParams { owner: string; repo: string }
interface CompareParams extends RepoParams { '*': string }
interface IndexParams extends RepoParams { index: string }
type Query = Record<string, string | undefined>;

/** Refusals of a review or comment the user can act on: back to the page with the reason, as Gitea's flash. */
const REVIEW_REFUSALS: ReadonlySet<ErrorCode> = new Set([ErrorCode.UNPROCESSABLE, ErrorCode.NOT_ALLOWED, ErrorCode.PERMISSION_DENIED, ErrorCode.INVALID_ARGUMENT]);

function parseIndex(raw: string): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw DomainError.notFound('not found');
  return Number(raw);
}

/** The review slice (docs/web-review.md); every write is the API's own message with the signed-in actor. */
class ReviewPages {
  private readonly views: ReviewViews;

  constructor(private readonly web: WebKit) {
    this.views = new ReviewViews(web.rpc);
  }

  register(): void {
    const { web } = this;
    web.get<RepoParams, Query>('/:owner/:repo/compare', (c) => this.picker(c));
    web.get<CompareParams, Query>('/:owner/:repo/compare/*', (c) => this.compare(c));
    web.post<CompareParams, Query>('/:owner/:repo/compare/*', (c) => this.create(c));
    web.get<IndexParams, Query>('/:owner/:repo/pulls/:index/commits', (c) => this.commits(c));
    web.get<IndexParams, Query>('/:owner/:repo/pulls/:index/files', (c) => this.files(c));
    web.get<IndexParams, Query>('/:owner/:repo/pulls/:index/files/reviews/new_comment', (c) => this.commentForm(c));
    web.post<IndexParams, Query>('/:owner/:repo/pulls/:index/files/reviews/comments', (c) => this.comment(c));
    web.post<IndexParams, Query>('/:owner/:repo/pulls/:index/files/reviews/submit', (c) => this.submit(c));
    web.get<RepoParams & { sha: string }, Query>('/:owner/:repo/blob_excerpt/:sha', (c) => this.excerpt(c));
  }

  private pulls(c: PageContext<RepoParams, unknown>, actor = c.actor): Promise<RepoContext> {
    return this.web.repoAccess({ actor }, c.params.owner, c.params.repo, 'pulls');
  }

  /** `/compare` without refs: pick a base and a head (a GET form; the default branch preselected as base). */
  private async picker(c: PageContext<RepoParams, Query>) {
    const ctx = await this.pulls(c);
    const base = c.query.base;
    const head = c.query.head;
    if (base && head) return redirect(compareUrl(siteOf(ctx).base, base, head));
    const [header, names] = await Promise.all([this.views.header(ctx), this.web.rpc.send(RepoSubjects.refNames, { ...ctx, limit: 500 })]);
    return page('review/compare-picker', `Compare · ${header.fullName}`, { header, branches: names.branches, base: header.defaultBranch });
  }

  private async compare(c: PageContext<CompareParams, Query>) {
    const ctx = await this.pulls(c);
    const { base, head } = splitCompare(c.params['*'], ctx.repo.defaultBranch);
    const view = await this.views.compare(ctx, base, head, diffStyleOf(c.query.style), c.actor !== null);
    return page('review/compare', `Comparing ${base}...${head} · ${view.header.fullName}`, { v: view, csrf: c.actor ? await c.csrfToken() : '' });
  }

  private async create(c: PageContext<CompareParams, Query>) {
    const ctx = await this.pulls(c, requireSignIn(c));
    const { base, head } = splitCompare(c.params['*'], ctx.repo.defaultBranch);
    const title = (c.form.title ?? '').trim();
    if (!title) throw DomainError.invalid('the title is required');
    const labels = idsField(c.req.body, 'label_ids');
    const milestone = milestoneField(c.form.milestone_id);
    const assigneeIds = idsField(c.req.body, 'assignee_ids');
    const assignees = assigneeIds.length ? await this.assigneeLogins(ctx, assigneeIds) : [];
    const pr = await this.web.rpc.send(PullSubjects.create, {
      ...ctx,
      body: {
        base, head, title, body: c.form.content ?? '',
        ...(labels.length ? { labels } : {}), ...(milestone ? { milestone } : {}), ...(assignees.length ? { assignees } : {}),
      },
    });
    return redirect(`${siteOf(ctx).base}/pulls/${pr.number}`);
  }

  /** `assignee_ids` are user ids (Gitea's form); the API's message names assignees by login. */
  private async assigneeLogins(ctx: RepoContext, ids: number[]): Promise<string[]> {
    const users = await this.web.rpc.send(IssueSubjects.assignees, { ...ctx });
    return ids.map((id) => {
      const user = users.find((u) => u.id === id);
      if (!user) throw DomainError.invalid(`assignee ${id} cannot be assigned here`);
      return user.login;
    });
  }

  private async commits(c: PageContext<IndexParams, Query>) {
    const ctx = await this.pulls(c);
    const v = await this.views.pullCommits(ctx, parseIndex(c.params.index));
    return page('review/pull-commits', `Commits · ${v.head.title} · Pull Request #${v.head.number}`, v);
  }

  private async files(c: PageContext<IndexParams, Query>) {
    const ctx = await this.pulls(c);
    const v = await this.views.pullFiles(ctx, parseIndex(c.params.index), diffStyleOf(c.query.style));
    return page('review/pull-files', `Files changed · ${v.head.title} · Pull Request #${v.head.number}`, {
      ...v, csrf: c.actor ? await c.csrfToken() : '',
    });
  }

  /** The line comment form on its own page (what a line number links to; the page script shows it inline). */
  private async commentForm(c: PageContext<IndexParams, Query>) {
    const ctx = await this.pulls(c, requireSignIn(c));
    const index = parseIndex(c.params.index);
    const place = linePlace(c.query);
    const pending = await this.views.pendingReview(ctx, index);
    const path = `${siteOf(ctx).base}/pulls/${index}`;
    return page('review/line-comment', `Comment on ${place.path}`, {
      place, pending: pending !== null, action: `${path}/files/reviews/comments`, back: `${path}/files`, csrf: await c.csrfToken(),
    });
  }

  /** `single_review=true` submits at once as a comment review unless a draft exists (then it joins it, as Gitea). */
  private async comment(c: PageContext<IndexParams, Query>) {
    const ctx = await this.pulls(c, requireSignIn(c));
    const index = parseIndex(c.params.index);
    const place = linePlace(c.form);
    const content = c.form.content ?? '';
    if (content.trim() === '') throw DomainError.invalid('the comment is empty');
    const pending = await this.views.pendingReview(ctx, index);
    const single = c.form.single_review === 'true' && pending === null;
    const files = `${siteOf(ctx).base}/pulls/${index}/files`;
    try {
      await this.web.rpc.send(ReviewSubjects.create, {
        ...ctx, index,
        body: {
          ...(single ? { event: 'COMMENT' } : {}),
          comments: [{ path: place.path, body: content, ...(place.side === 'previous' ? { old_position: place.line } : { new_position: place.line }) }],
        },
      });
    } catch (err) {
      if (!(err instanceof DomainError) || !REVIEW_REFUSALS.has(err.code)) throw err;
      await c.flash('error', `Comment not saved: ${err.message}`);
      return redirect(files);
    }
    return redirect(`${files}#${lineAnchor(fileAnchor(place.path), place.side, place.line)}`);
  }

  /** The review form: submits the viewer's draft with a verdict, or makes a review of its own. */
  private async submit(c: PageContext<IndexParams, Query>) {
    const ctx = await this.pulls(c, requireSignIn(c));
    const index = parseIndex(c.params.index);
    const event = reviewEvent(c.form.type);
    const body = c.form.content ?? '';
    const commitId = c.form.commit_id ?? '';
    if (commitId && !/^[0-9a-f]{4,64}$/i.test(commitId)) throw DomainError.invalid('commit_id must be a commit id');
    const pending = await this.views.pendingReview(ctx, index);
    const path = `${siteOf(ctx).base}/pulls/${index}`;
    try {
      if (pending) await this.web.rpc.send(ReviewSubjects.submit, { ...ctx, index, id: pending.id, body: { body, event } });
      else await this.web.rpc.send(ReviewSubjects.create, { ...ctx, index, body: { body, event, ...(commitId ? { commit_id: commitId } : {}) } });
    } catch (err) {
      if (!(err instanceof DomainError) || !REVIEW_REFUSALS.has(err.code)) throw err;
      await c.flash('error', `Review not submitted: ${err.message}`);
      return redirect(`${path}/files`);
    }
    return redirect(path);
  }

  /** Gitea's `blob_excerpt`: the hidden unchanged lines of a diff, as rows the page script puts in place. */
  private async excerpt(c: PageContext<RepoParams & { sha: string }, Query>) {
    const ctx = await this.web.repoAccess(c, c.params.owner, c.params.repo, 'code');
    if (!isObjectId(c.params.sha)) throw DomainError.notFound('commit not found');
    const q = c.query;
    const path = (q.path ?? '').trim();
    const num = (v: string | undefined, min: number) => (v !== undefined && /^-?\d{1,9}$/.test(v) && Number(v) >= min ? Number(v) : null);
    const from = num(q.from, 1);
    const to = num(q.to, 0);
    const shift = num(q.shift, -1e9);
    if (!path || from === null || to === null || shift === null) throw DomainError.invalid('path, from, to and shift are required');
    const blob = await this.web.rpc.send(RepoSubjects.rawGet, { ...ctx, path, ref: c.params.sha, maxInlineBytes: FILE_VIEW_MAX_BYTES });
    if (blob.type !== 'file' || blob.contentBase64 === null) throw DomainError.notFound('no such file, or too large to show');
    const text = Buffer.from(blob.contentBase64, 'base64').toString('utf8');
    const style = diffStyleOf(q.style);
    return fragment('review/excerpt', { rows: excerptRows(text, path, from, to, shift, style), style });
  }
}

export function registerReviewPages(web: WebKit): void {
  new ReviewPages(web).register();
}
