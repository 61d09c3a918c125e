import {
  COMMIT_DIFF_MAX_BYTES, DomainError, ErrorCode, IssueSubjects, LabelSubjects, MAX_PAGE_SIZE, MilestoneSubjects, PullSubjects,
  RepoSubjects, ReviewSubjects,
  type CommitDto, type PullRequestDto, type PullReviewCommentDto, type PullReviewDto,
} from '@cairn/contracts';
import type { RpcClient } from '@cairn/platform';
import type { RepoContext } from '../../access/repo-access.guard.js';
import { canTriage } from '../repo/write-forms.js';
import { pullTabsView, type PullTab, type PullTabsView } from '../pulls/pull-tabs.view.js';
import { headTarget } from '../pulls/merge-box.view.js';
import {
  diffView, excerptUrl, lineKey, type DiffSide, type DiffStyle, type DiffView, type LineComment,
} from '../repo/diff-view.js';
import { renderMarkdown } from '../repo/markdown.js';
import { refUrl } from '../repo/ref-path.js';
import { RepoViews, siteOf, type RepoHeader } from '../repo/repo-views.js';
import { parseUnifiedDiff } from '../repo/unified-diff.js';
import { verificationBadge, type VerificationBadge } from '../repo/verification-badge.js';
import { compareUrl, headBranch } from './review-forms.js';

/** Commits one Commits tab or compare page lists (the API's largest page). */
const COMMITS_SHOWN = MAX_PAGE_SIZE;
/** Reviews whose comments a Files page reads (one call each). */
const REVIEWS_READ = MAX_PAGE_SIZE;

export interface CommitItem {
  sha: string;
  shortSha: string;
  title: string;
  author: string;
  avatar: string;
  date: string;
  url: string;
  badge: VerificationBadge;
}

export interface PullHead {
  header: RepoHeader;
  pr: PullRequestDto;
  title: string;
  number: number;
  state: 'open' | 'closed' | 'merged';
  author: string;
  head: string;
  base: string;
  path: string;
  tabs: PullTabsView;
}

/** The pickers of a new pull request's form (writers only: repo-service ignores them for others). */
export interface IssueFieldChoices {
  labels: Array<{ id: number; name: string; color: string }>;
  milestones: Array<{ id: number; title: string }>;
  assignees: Array<{ id: number; login: string }>;
}

export interface CompareView {
  header: RepoHeader;
  base: string;
  head: string;
  branches: string[];
  commits: CommitItem[];
  totalCommits: number;
  diff: DiffView;
  tooLarge: boolean;
  /** The open pull request for this pair: linked instead of the form. */
  existing: { number: number; title: string; url: string } | null;
  /** The form (null: not signed in or nothing to compare). */
  form: { action: string; title: string; choices: IssueFieldChoices | null } | null;
  here: string;
}

export interface ReviewBox {
  /** The viewer's own draft review and its comments count. */
  pendingId: number | null;
  pendingComments: number;
  /** Approve / Request changes: not for one's own pull request nor a closed one (repo-service refuses them). */
  canJudge: boolean;
  headSha: string;
  action: string;
}

export class ReviewViews {
  private readonly repos: RepoViews;

  constructor(private readonly rpc: RpcClient) {
    this.repos = new RepoViews(rpc);
  }

  header(ctx: RepoContext): Promise<RepoHeader> {
    return this.repos.header(ctx);
  }

  private commitItem(base: string, c: CommitDto): CommitItem {
    const message = c.commit.message;
    const nl = message.indexOf('\n');
    const author = c.author?.login ?? c.commit.author.name;
    return {
      sha: c.sha, shortSha: c.sha.slice(0, 10), title: nl < 0 ? message : message.slice(0, nl),
      author, avatar: c.author?.login ?? '', date: c.commit.author.date, url: `${base}/commit/${c.sha}`,
      badge: verificationBadge(c.commit.verification),
    };
  }

  async choices(ctx: RepoContext): Promise<IssueFieldChoices> {
    const [labels, milestones, assignees] = await Promise.all([
      this.rpc.send(LabelSubjects.list, { ...ctx, query: { page: 1, limit: MAX_PAGE_SIZE } }),
      this.rpc.send(MilestoneSubjects.list, { ...ctx, query: { page: 1, limit: MAX_PAGE_SIZE, state: 'open' } }),
      this.rpc.send(IssueSubjects.assignees, { ...ctx }),
    ]);
    return {
      labels: labels.items.map((l) => ({ id: l.id, name: l.name, color: l.color })),
      milestones: milestones.items.map((m) => ({ id: m.id, title: m.title })),
      assignees: assignees.map((u) => ({ id: u.id, login: u.login })),
    };
  }

  async compare(ctx: RepoContext, base: string, head: string, style: DiffStyle, canCreate: boolean): Promise<CompareView> {
    const site = siteOf(ctx);
    const here = compareUrl(site.base, base, head);
    // A fork's branch (`owner:branch`) is compared by its commit, copied into this repository as a pull request's is.
    const headRef = head.includes(':') ? (await this.rpc.send(PullSubjects.headCommit, { ...ctx, head })).sha : head;
    const [header, names, compared, existing] = await Promise.all([
      this.repos.header(ctx),
      this.repos.refNames(ctx),
      this.rpc.send(RepoSubjects.compare, { ...ctx, basehead: `${base}...${headRef}`, options: { stat: false, verification: true, files: false } }),
      this.rpc.send(PullSubjects.getByBranches, { ...ctx, base, head }).catch((err: unknown) => {
        if (err instanceof DomainError && err.code === ErrorCode.NOT_FOUND) return null;
        throw err;
      }),
    ]);
    const nothing = compared.total_commits === 0;
    const diff = nothing ? null : await this.rpc.send(RepoSubjects.commitDiff, { ...ctx, sha: headRef, base, maxBytes: COMMIT_DIFF_MAX_BYTES });
    const commits = compared.commits.slice(0, COMMITS_SHOWN).map((c) => this.commitItem(site.base, c));
    const open = existing && existing.state === 'open' ? existing : null;
    const showForm = canCreate && !nothing && !open;
    const choices = showForm && canTriage(ctx) ? await this.choices(ctx) : null;
    return {
      header, base, head, here,
      branches: names.branches,
      commits,
      totalCommits: compared.total_commits,
      diff: diffView(diff && !diff.tooLarge ? parseUnifiedDiff(diff.patch) : [], {
        style,
        headBlobUrl: diff ? (path) => refUrl(site.base, 'src', 'commit', diff.sha, path) : undefined,
        excerptUrl: diff ? (path, from, to, shift) => excerptUrl(site.base, diff.sha, path, from, to, shift, style) : undefined,
      }),
      tooLarge: diff?.tooLarge ?? false,
      existing: open ? { number: open.number, title: open.title, url: `${site.base}/pulls/${open.number}` } : null,
      // Gitea's default title: the only commit's, else the head branch's name.
      form: showForm ? { action: here, title: commits.length === 1 ? commits[0].title : headBranch(head), choices } : null,
    };
  }

  /** The head of a pull request's Commits or Files page (the commit count for the tab comes with it). */
  async pullHead(ctx: RepoContext, index: number, tab: PullTab): Promise<PullHead & { commits: CommitDto[]; totalCommits: number }> {
    const site = siteOf(ctx);
    const [header, pr, commits] = await Promise.all([
      this.repos.header(ctx),
      this.rpc.send(PullSubjects.get, { ...ctx, index, view: true }),
      this.rpc.send(PullSubjects.commits, { ...ctx, index, query: { page: 1, limit: tab === 'commits' ? COMMITS_SHOWN : 1 } }),
    ]);
    const path = `${site.base}/pulls/${index}`;
    return {
      header, pr, path, title: pr.title, number: pr.number,
      state: pr.merged ? 'merged' : pr.state,
      author: pr.user.login, head: headTarget(pr), base: pr.base.label,
      tabs: pullTabsView(path, pr, tab, commits.total),
      commits: commits.items, totalCommits: commits.total,
    };
  }

  async pullCommits(ctx: RepoContext, index: number): Promise<{ head: PullHead; commits: CommitItem[]; total: number }> {
    const head = await this.pullHead(ctx, index, 'commits');
    const base = siteOf(ctx).base;
    return { head, commits: head.commits.map((c) => this.commitItem(base, c)), total: head.totalCommits };
  }

  private async comments(ctx: RepoContext, index: number, headSha: string) {
    const reviews = await this.rpc.send(ReviewSubjects.list, { ...ctx, index, query: { page: 1, limit: REVIEWS_READ } });
    const withComments = reviews.items.filter((r) => r.comments_count > 0);
    const lists = await Promise.all(withComments.map((r) => this.rpc.send(ReviewSubjects.comments, { ...ctx, index, id: r.id })));
    const byReview = new Map<number, PullReviewDto>(reviews.items.map((r) => [r.id, r]));
    const atLine = new Map<string, LineComment[]>();
    const outdated = new Map<string, LineComment[]>();
    const linkBase = `${siteOf(ctx).base}/src/commit/${headSha}/`;
    for (const c of lists.flat().sort((a, b) => a.id - b.id)) {
      const review = byReview.get(c.pull_request_review_id);
      const view = lineComment(c, review, headSha, linkBase);
      const side: DiffSide = c.position > 0 ? 'proposed' : 'previous';
      const line = c.position > 0 ? c.position : c.original_position;
      const [map, key] = view.outdated ? [outdated, c.path] : [atLine, lineKey(c.path, side, line)];
      map.set(key, [...(map.get(key) ?? []), view]);
    }
    const mine = ctx.actor ? reviews.items.find((r) => r.state === 'PENDING' && r.user?.id === ctx.actor!.id) ?? null : null;
    return { atLine, outdated, mine };
  }

  async pullFiles(ctx: RepoContext, index: number, style: DiffStyle): Promise<{ head: PullHead; diff: DiffView; tooLarge: boolean; review: ReviewBox | null }> {
    const head = await this.pullHead(ctx, index, 'files');
    const { pr } = head;
    const site = siteOf(ctx);
    const [diff, notes] = await Promise.all([
      this.rpc.send(RepoSubjects.commitDiff, { ...ctx, sha: pr.head.sha, base: pr.merge_base || pr.base.sha, maxBytes: COMMIT_DIFF_MAX_BYTES }),
      this.comments(ctx, index, pr.head.sha),
    ]);
    const open = pr.state === 'open' && !pr.merged;
    const signedIn = ctx.actor !== null;
    const commentUrl = signedIn
      ? (path: string, side: DiffSide, line: number) =>
        `${head.path}/files/reviews/new_comment?${new URLSearchParams({ path, line: String(line), side }).toString()}`
      : undefined;
    return {
      head,
      diff: diffView(diff.tooLarge ? [] : parseUnifiedDiff(diff.patch), {
        style,
        headBlobUrl: (path) => refUrl(site.base, 'src', 'commit', pr.head.sha, path),
        excerptUrl: (path, from, to, shift) => excerptUrl(site.base, pr.head.sha, path, from, to, shift, style),
        commentUrl,
        comments: notes.atLine,
        outdated: notes.outdated,
      }),
      tooLarge: diff.tooLarge,
      review: signedIn ? {
        pendingId: notes.mine?.id ?? null,
        pendingComments: notes.mine?.comments_count ?? 0,
        canJudge: open && ctx.actor!.id !== pr.user.id,
        headSha: pr.head.sha,
        action: `${head.path}/files/reviews/submit`,
      } : null,
    };
  }

  async pendingReview(ctx: RepoContext, index: number): Promise<PullReviewDto | null> {
    if (!ctx.actor) return null;
    const reviews = await this.rpc.send(ReviewSubjects.list, { ...ctx, index, query: { page: 1, limit: REVIEWS_READ } });
    return reviews.items.find((r) => r.state === 'PENDING' && r.user?.id === ctx.actor!.id) ?? null;
  }
}

function lineComment(c: PullReviewCommentDto, review: PullReviewDto | undefined, headSha: string, linkBase: string): LineComment {
  return {
    id: c.id,
    author: c.user?.login ?? 'Ghost',
    html: renderMarkdown(c.body, linkBase, linkBase.replace('/src/', '/raw/')),
    at: c.created_at,
    pending: review?.state === 'PENDING',
    outdated: !!c.commit_id && c.commit_id !== headSha,
  };
}
