import type { IssueDto, LabelDto, MilestoneDto, Paginated, PullReviewDto, TimelineCommentDto, UserDto } from '@cairn/contracts';
import { renderMarkdown } from '../repo/markdown.js';
import { refUrl } from '../repo/ref-path.js';

/** Gitea's list filters, as query parameters: `labels` (comma-separated ids), `milestone`, `assignee`, `poster` (ids), `q`. */
export interface ListFilters {
  labels: number[];
  milestone: number | null;
  assignee: number | null;
  poster: number | null;
  q: string;
}

export interface ListModel {
  basePath: string;
  kind: 'issues' | 'pulls';
  state: 'open' | 'closed' | 'all';
  page: number;
  limit: number;
  filters: ListFilters;
}

/** What the filter controls offer: the repository's labels and milestones, assignable users, the poster filtered by. */
export interface ListChoices {
  labels: LabelDto[];
  milestones: MilestoneDto[];
  assignees: UserDto[];
  poster: UserDto | null;
}

export interface LabelView { id: number; name: string; color: string; description: string; href: string }

export interface ListView {
  heading: string;
  kind: 'issues' | 'pulls';
  tabs: Array<{ href: string; label: string; count: number | null; current: boolean }>;
  newHref: string | null;
  filters: {
    action: string; state: string; q: string; label: number | null; milestone: number | null; assignee: number | null;
    poster: { id: number; login: string; clear: string } | null; active: boolean; clear: string;
    labels: Array<{ id: number; name: string }>; milestones: Array<{ id: number; title: string }>; assignees: Array<{ id: number; login: string }>;
  };
  items: Array<{
    href: string; title: string; number: number; state: string; createdAt: string; author: string; comments: number;
    locked: boolean; lockReason: string | null; labels: LabelView[]; milestone: { title: string; href: string } | null;
    assignees: string[];
  }>;
  emptyText: string;
  newPullHref: string | null;
  pager: { page: number; pages: number; prev: string | null; next: string | null } | null;
}

export function listQuery(f: ListFilters, state: string, page?: number): string {
  const p = new URLSearchParams({ state });
  if (f.labels.length) p.set('labels', f.labels.join(','));
  if (f.milestone !== null) p.set('milestone', String(f.milestone));
  if (f.assignee !== null) p.set('assignee', String(f.assignee));
  if (f.poster !== null) p.set('poster', String(f.poster));
  if (f.q) p.set('q', f.q);
  if (page && page > 1) p.set('page', String(page));
  return `?${p.toString()}`;
}

export function labelView(l: LabelDto, listPath: string): LabelView {
  return { id: l.id, name: l.name, color: l.color, description: l.description, href: `${listPath}?labels=${l.id}` };
}

export function listView(
  m: ListModel, result: Paginated<IssueDto>, counts: { open: number; closed: number }, choices: ListChoices, canCreate: boolean,
): ListView {
  const noun = m.kind === 'pulls' ? 'pull requests' : 'issues';
  const f = m.filters;
  const href = (state: string, page?: number) => `${m.basePath}${listQuery(f, state, page)}`;
  const pages = Math.max(1, Math.ceil(result.total / m.limit));
  const count = { open: counts.open, closed: counts.closed, all: null } as const;
  return {
    heading: m.kind === 'pulls' ? 'Pull requests' : 'Issues',
    kind: m.kind,
    tabs: (['open', 'closed', 'all'] as const).map((s) => ({
      href: href(s), label: s[0].toUpperCase() + s.slice(1), count: count[s], current: m.state === s,
    })),
    newHref: canCreate && m.kind === 'issues' ? `${m.basePath}/new` : null,
    filters: {
      action: m.basePath, state: m.state, q: f.q, label: f.labels[0] ?? null, milestone: f.milestone, assignee: f.assignee,
      poster: f.poster !== null && choices.poster
        ? { id: f.poster, login: choices.poster.login, clear: `${m.basePath}${listQuery({ ...f, poster: null }, m.state)}` }
        : null,
      active: f.labels.length > 0 || f.milestone !== null || f.assignee !== null || f.poster !== null || f.q !== '',
      clear: `${m.basePath}?state=${m.state}`,
      labels: choices.labels.map((l) => ({ id: l.id, name: l.name })),
      milestones: choices.milestones.map((x) => ({ id: x.id, title: x.title })),
      assignees: choices.assignees.map((u) => ({ id: u.id, login: u.login })),
    },
    items: result.items.map((i) => ({
      href: `${m.basePath}/${i.number}`, title: i.title, number: i.number,
      state: i.pull_request?.merged ? 'merged' : i.state, createdAt: i.created_at, author: i.user.login, comments: i.comments,
      locked: i.is_locked, lockReason: i.active_lock_reason,
      labels: i.labels.map((l) => labelView(l, m.basePath)),
      milestone: i.milestone ? { title: i.milestone.title, href: `${m.basePath}?milestone=${i.milestone.id}` } : null,
      assignees: (i.assignees ?? []).map((u) => u.login),
    })),
    emptyText: `No ${m.state === 'all' ? '' : `${m.state} `}${noun}${f.labels.length || f.milestone !== null || f.assignee !== null || f.poster !== null || f.q ? ' match these filters' : ''}.`,
    newPullHref: m.kind === 'pulls' ? m.basePath.replace(/\/pulls$/, '/compare') : null,
    pager: pages === 1 ? null : {
      page: m.page, pages,
      prev: m.page > 1 ? href(m.state, m.page - 1) : null,
      next: m.page < pages ? href(m.state, m.page + 1) : null,
    },
  };
}

/** Gitea's comment type names; types the service does not record yet are here so later entries read right. */
const EVENT_TEXT: Record<string, string> = {
  close: 'closed this',
  reopen: 'reopened this',
  lock: 'locked this conversation',
  unlock: 'unlocked this conversation',
  merge_pull: 'merged this pull request',
  pull_push: 'pushed commits',
  force_push: 'force-pushed the branch',
  label: 'changed the labels',
  milestone: 'changed the milestone',
  assignees: 'changed the assignees',
  change_title: 'changed the title',
  commit_ref: 'referenced this from a commit',
  issue_ref: 'referenced this',
  pull_ref: 'closed this with pull request',
  delete_branch: 'deleted the branch',
  review_request: 'requested a review',
};

const REVIEW_TEXT: Record<string, string> = {
  APPROVED: 'approved these changes',
  REQUEST_CHANGES: 'requested changes',
  COMMENT: 'reviewed',
};

export interface ConversationModel {
  issue: IssueDto;
  path: string;
  timeline: TimelineCommentDto[];
  /** A pull request's submitted reviews (pending ones are left out): they join the timeline by time. */
  reviews?: PullReviewDto[];
  signedIn: boolean;
  /** The viewer's id, when signed in: the issue's author may edit and close it too (repo-service's `canModify`). */
  viewerId?: number | null;
  /** Write access or site admin: may comment on a locked issue, lock and unlock, label, assign (repo-service's rule). */
  canWrite: boolean;
  /** `/{owner}/{repo}` and its default branch: relative links in comments point at its files, as on Gitea. */
  repoBase: string;
  defaultBranch: string;
  /** For writers, what the sidebar forms offer: the repository's labels, open milestones, assignable users. */
  choices?: { labels: LabelDto[]; milestones: MilestoneDto[]; assignees: UserDto[] } | null;
}

export type TimelineEntry =
  | { kind: 'comment'; id: string; author: string; at: string; html: string }
  | { kind: 'event'; id: string; author: string; at: string; text: string }
  | { kind: 'review'; id: string; author: string; at: string; state: string; text: string; html: string };

export interface ConversationView {
  title: string;
  number: number;
  state: string;
  locked: boolean;
  lockReason: string | null;
  path: string;
  listPath: string;
  /** Bodies are rendered Markdown (`html`), escaped and link-checked by `renderMarkdown`. */
  opening: { author: string; at: string; html: string } | null;
  entries: TimelineEntry[];
  /** `form`: the comment form; `locked`: a locked conversation for a reader; `sign-in`: anonymous. */
  commentBox: 'form' | 'locked' | 'sign-in';
  lockAction: 'lock' | 'unlock' | null;
  /** Close or reopen beside the comment button (authors and writers; never on a merged pull request). */
  stateAction: 'close' | 'reopen' | null;
  canEditTitle: boolean;
  sidebar: {
    labels: LabelView[];
    milestone: { title: string; href: string } | null;
    assignees: string[];
    edit: {
      labels: Array<{ id: number; name: string; color: string; checked: boolean }>;
      milestones: Array<{ id: number; title: string; selected: boolean }>;
      assignees: Array<{ id: number; login: string; checked: boolean }>;
    } | null;
  };
}

/** A `pull_push` entry's body, Gitea's `{"is_force_push", "commit_ids"}`; null when it is not that JSON. */
export function pullPushOf(body: string): { forced: boolean; commitIds: string[] } | null {
  try {
    const v = JSON.parse(body) as { is_force_push?: unknown; commit_ids?: unknown };
    if (typeof v.is_force_push !== 'boolean' || !Array.isArray(v.commit_ids)) return null;
    const ids = v.commit_ids.filter((id): id is string => typeof id === 'string' && /^[0-9a-f]{40,64}$/.test(id));
    return { forced: v.is_force_push, commitIds: ids };
  } catch {
    return null;
  }
}

function pushText(c: TimelineCommentDto): string {
  const push = pullPushOf(c.body);
  if (!push) return EVENT_TEXT.pull_push;
  if (push.forced && push.commitIds.length === 2) {
    return `force-pushed the branch from ${push.commitIds[0].slice(0, 10)} to ${push.commitIds[1].slice(0, 10)}`;
  }
  const n = push.commitIds.length;
  return `pushed ${n} commit${n === 1 ? '' : 's'}: ${push.commitIds.map((id) => id.slice(0, 10)).join(', ')}`;
}

function eventText(c: TimelineCommentDto): string {
  if (c.type === 'pull_push') return pushText(c);
  if (c.type === 'lock' && c.body) return `${EVENT_TEXT.lock} as ${c.body}`;
  if (c.type === 'pull_ref' && c.body) return `${EVENT_TEXT.pull_ref} ${c.body}`;
  if (c.type === 'change_title' && c.old_title !== undefined) return `changed the title from “${c.old_title}” to “${c.new_title ?? ''}”`;
  if (c.type === 'assignees' && c.assignee) {
    const self = c.assignee.login === c.user.login;
    if (c.removed_assignee) return self ? 'removed their assignment' : `unassigned ${c.assignee.login}`;
    return self ? 'self-assigned this' : `assigned ${c.assignee.login}`;
  }
  if (c.type === 'label' && c.label) return `${c.body ? 'added' : 'removed'} the ${c.label.name} label`;
  if (c.type === 'milestone' && (c.milestone || c.old_milestone)) {
    if (c.milestone && c.old_milestone) return `modified the milestone from ${c.old_milestone.title} to ${c.milestone.title}`;
    return c.milestone ? `added this to the ${c.milestone.title} milestone` : `removed this from the ${c.old_milestone!.title} milestone`;
  }
  return EVENT_TEXT[c.type] ?? c.type.replace(/_/g, ' ');
}

function entry(c: TimelineCommentDto, render: (body: string) => string): TimelineEntry {
  const base = { id: `issuecomment-${c.id}`, author: c.user.login, at: c.created_at };
  if (c.type === 'comment') return { kind: 'comment', ...base, html: render(c.body) };
  return { kind: 'event', ...base, text: eventText(c) };
}

function reviewEntry(r: PullReviewDto, render: (body: string) => string): TimelineEntry | null {
  const text = REVIEW_TEXT[r.state];
  if (!text || !r.user) return null;
  const dismissed = r.dismissed ? ' (dismissed)' : '';
  return {
    kind: 'review', id: `pullrequestreview-${r.id}`, author: r.user.login, at: r.submitted_at, state: r.state.toLowerCase(),
    text: `${text}${dismissed}`, html: r.body ? render(r.body) : '',
  };
}

export function conversationView(m: ConversationModel, state = m.issue.state as string): ConversationView {
  const { issue } = m;
  const linkBase = `${refUrl(m.repoBase, 'src', 'branch', m.defaultBranch)}/`;
  const imageBase = `${refUrl(m.repoBase, 'raw', 'branch', m.defaultBranch)}/`;
  const render = (body: string) => renderMarkdown(body, linkBase, imageBase, m.repoBase);
  const listPath = `${m.repoBase}/${issue.pull_request ? 'pulls' : 'issues'}`;
  const reviews = (m.reviews ?? []).map((r) => reviewEntry(r, render)).filter((e): e is TimelineEntry => e !== null);
  // One ordered list: the service's timeline is in order; reviews slot in by time (stable for equal times).
  const entries = [...m.timeline.map((c) => entry(c, render)), ...reviews]
    .map((e, i) => ({ e, i, t: Date.parse(e.at) }))
    .sort((a, b) => a.t - b.t || a.i - b.i)
    .map(({ e }) => e);
  const canModify = m.canWrite || (m.viewerId != null && m.viewerId === issue.user.id);
  const labelIds = new Set(issue.labels.map((l) => l.id));
  const assigned = new Set((issue.assignees ?? []).map((u) => u.id));
  const choices = m.canWrite ? m.choices : null;
  return {
    title: issue.title, number: issue.number, state, locked: issue.is_locked, lockReason: issue.active_lock_reason,
    path: m.path, listPath,
    opening: issue.body ? { author: issue.user.login, at: issue.created_at, html: render(issue.body) } : null,
    entries,
    commentBox: !m.signedIn ? 'sign-in' : issue.is_locked && !m.canWrite ? 'locked' : 'form',
    lockAction: m.canWrite ? (issue.is_locked ? 'unlock' : 'lock') : null,
    stateAction: !m.signedIn || !canModify || state === 'merged' ? null : issue.state === 'open' ? 'close' : 'reopen',
    canEditTitle: m.signedIn && canModify,
    sidebar: {
      labels: issue.labels.map((l) => labelView(l, listPath)),
      milestone: issue.milestone ? { title: issue.milestone.title, href: `${listPath}?milestone=${issue.milestone.id}` } : null,
      assignees: (issue.assignees ?? []).map((u) => u.login),
      edit: choices ? {
        labels: choices.labels.map((l) => ({ id: l.id, name: l.name, color: l.color, checked: labelIds.has(l.id) })),
        milestones: choices.milestones.map((x) => ({ id: x.id, title: x.title, selected: issue.milestone?.id === x.id })),
        assignees: choices.assignees.map((u) => ({ id: u.id, login: u.login, checked: assigned.has(u.id) })),
      } : null,
    },
  };
}
