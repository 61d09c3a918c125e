import type { IssueDto, Paginated, TimelineCommentDto } from '@cairn/contracts';
import { renderMarkdown } from '../repo/markdown.js';
import { refUrl } from '../repo/ref-path.js';

/** Where a list page is, for its tabs and pager. */
export interface ListModel {
  /** `/{owner}/{repo}/issues` or `/{owner}/{repo}/pulls` */
  basePath: string;
  kind: 'issues' | 'pulls';
  state: 'open' | 'closed' | 'all';
  page: number;
  limit: number;
}

/** What `pulls/list.eta` shows. */
export interface ListView {
  heading: string;
  repoName: string;
  tabs: Array<{ href: string; label: string; current: boolean }>;
  items: Array<{
    href: string; title: string; number: number; state: string; createdAt: string; author: string; comments: number;
    locked: boolean; lockReason: string | null;
  }>;
  emptyText: string;
  /** "New pull request": the compare page (pull-request lists only). */
  newPullHref: string | null;
  pager: { page: number; pages: number; prev: string | null; next: string | null } | null;
}

export function listView(m: ListModel, result: Paginated<IssueDto>, repoName: string): ListView {
  const noun = m.kind === 'pulls' ? 'pull requests' : 'issues';
  const href = (state: string, page?: number) => `${m.basePath}?state=${state}${page ? `&page=${page}` : ''}`;
  const pages = Math.max(1, Math.ceil(result.total / m.limit));
  return {
    heading: m.kind === 'pulls' ? 'Pull requests' : 'Issues',
    repoName,
    tabs: (['open', 'closed', 'all'] as const).map((s) => ({ href: href(s), label: s[0].toUpperCase() + s.slice(1), current: m.state === s })),
    items: result.items.map((i) => ({
      href: `${m.basePath}/${i.number}`, title: i.title, number: i.number,
      state: i.pull_request?.merged ? 'merged' : i.state, createdAt: i.created_at, author: i.user.login, comments: i.comments,
      locked: i.is_locked, lockReason: i.active_lock_reason,
    })),
    emptyText: `No ${m.state === 'all' ? '' : `${m.state} `}${noun}.`,
    newPullHref: m.kind === 'pulls' ? m.basePath.replace(/\/pulls$/, '/compare') : null,
    pager: pages === 1 ? null : {
      page: m.page, pages,
      prev: m.page > 1 ? href(m.state, m.page - 1) : null,
      next: m.page < pages ? href(m.state, m.page + 1) : null,
    },
  };
}

const EVENT_TEXT: Record<string, string> = {
  close: 'closed this',
  reopen: 'reopened this',
  lock: 'locked this conversation',
  unlock: 'unlocked this conversation',
  merge_pull: 'merged this pull request',
  pull_push: 'pushed commits',
  pull_ref: 'closed this with pull request',
};

/** What the conversation part of an issue or pull-request page is made of. */
export interface ConversationModel {
  issue: IssueDto;
  /** `/{owner}/{repo}/issues/{index}` or `/{owner}/{repo}/pulls/{index}` */
  path: string;
  timeline: TimelineCommentDto[];
  signedIn: boolean;
  /** Write access or site admin: may comment on a locked issue, lock and unlock (repo-service's rule). */
  canWrite: boolean;
  /** `/{owner}/{repo}` and its default branch: relative links in comments point at its files, as on Gitea. */
  repoBase: string;
  defaultBranch: string;
}

/** What `pulls/conversation.eta` shows. */
export interface ConversationView {
  title: string;
  number: number;
  state: string;
  locked: boolean;
  lockReason: string | null;
  path: string;
  /** Bodies are rendered Markdown (`html`), escaped and link-checked by `renderMarkdown`. */
  opening: { author: string; at: string; html: string } | null;
  entries: Array<
    | { kind: 'comment'; id: number; author: string; at: string; html: string }
    | { kind: 'event'; id: number; author: string; at: string; text: string }
  >;
  /** `form`: the comment form; `locked`: a locked conversation for a reader; `sign-in`: anonymous. */
  commentBox: 'form' | 'locked' | 'sign-in';
  lockAction: 'lock' | 'unlock' | null;
}

function entry(c: TimelineCommentDto, render: (body: string) => string): ConversationView['entries'][number] {
  const base = { id: c.id, author: c.user.login, at: c.created_at };
  if (c.type === 'comment') return { kind: 'comment', ...base, html: render(c.body) };
  const reason = c.type === 'lock' && c.body ? ` as ${c.body}` : c.type === 'pull_ref' ? ` ${c.body}` : '';
  return { kind: 'event', ...base, text: `${EVENT_TEXT[c.type] ?? c.type}${reason}` };
}

export function conversationView(m: ConversationModel, state = m.issue.state as string): ConversationView {
  const { issue } = m;
  const linkBase = `${refUrl(m.repoBase, 'src', 'branch', m.defaultBranch)}/`;
  const imageBase = `${refUrl(m.repoBase, 'raw', 'branch', m.defaultBranch)}/`;
  const render = (body: string) => renderMarkdown(body, linkBase, imageBase);
  return {
    title: issue.title, number: issue.number, state, locked: issue.is_locked, lockReason: issue.active_lock_reason,
    path: m.path,
    opening: issue.body ? { author: issue.user.login, at: issue.created_at, html: render(issue.body) } : null,
    entries: m.timeline.map((c) => entry(c, render)),
    commentBox: !m.signedIn ? 'sign-in' : issue.is_locked && !m.canWrite ? 'locked' : 'form',
    lockAction: m.canWrite ? (issue.is_locked ? 'unlock' : 'lock') : null,
  };
}
