import type { IssueDto, Paginated, PullRequestDto, TimelineCommentDto } from '@cairn/contracts';
import { csrfField, escapeHtml, timeTag } from './html.js';
import { renderMergeBox, type MergeBoxModel } from './merge-box.view.js';

/** Where a list page is, for its tabs and pager. */
export interface ListModel {
  /** `/{owner}/{repo}/issues` or `/{owner}/{repo}/pulls` */
  basePath: string;
  kind: 'issues' | 'pulls';
  state: 'open' | 'closed' | 'all';
  page: number;
  limit: number;
}

function stateBadge(state: string): string {
  return `<span class="badge badge-${escapeHtml(state)}">${escapeHtml(state)}</span>`;
}

function lockBadge(locked: boolean, reason: string | null): string {
  if (!locked) return '';
  return ` <span class="badge badge-locked">Locked${reason ? ` as ${escapeHtml(reason)}` : ''}</span>`;
}

function tabs(m: ListModel): string {
  const tab = (s: ListModel['state'], label: string) =>
    `<a href="${escapeHtml(m.basePath)}?state=${s}"${m.state === s ? ' aria-current="page"' : ''}>${label}</a>`;
  return `<nav class="tabs" aria-label="Filter by state">${tab('open', 'Open')} ${tab('closed', 'Closed')} ${tab('all', 'All')}</nav>`;
}

function pager(m: ListModel, total: number): string {
  const pages = Math.max(1, Math.ceil(total / m.limit));
  if (pages === 1) return '';
  const link = (p: number, label: string, rel: string) =>
    `<a rel="${rel}" href="${escapeHtml(m.basePath)}?state=${m.state}&amp;page=${p}">${label}</a>`;
  return `<nav class="pager" aria-label="Pages">${m.page > 1 ? link(m.page - 1, 'Previous', 'prev') : ''}` +
    ` <span>Page ${m.page} of ${pages}</span> ${m.page < pages ? link(m.page + 1, 'Next', 'next') : ''}</nav>`;
}

/** One row of an issue or pull-request list (both come from `IssueDto`, pulls by their `pull_request` meta). */
function row(issue: IssueDto, basePath: string): string {
  const state = issue.pull_request?.merged ? 'merged' : issue.state;
  return `<li class="item">${stateBadge(state)} <a href="${escapeHtml(basePath)}/${issue.number}">${escapeHtml(issue.title)}</a>` +
    ` <span class="muted">#${issue.number} opened ${timeTag(issue.created_at)} by ${escapeHtml(issue.user.login)}` +
    `${issue.comments ? ` · ${issue.comments} comment${issue.comments === 1 ? '' : 's'}` : ''}</span>${lockBadge(issue.is_locked, issue.active_lock_reason)}</li>`;
}

/** The issue list or pull-request list of a repository. */
export function renderIssueList(m: ListModel, result: Paginated<IssueDto>, repoName: string): string {
  const noun = m.kind === 'pulls' ? 'pull requests' : 'issues';
  const items = result.items.length
    ? `<ul class="item-list">${result.items.map((i) => row(i, m.basePath)).join('')}</ul>`
    : `<p class="empty">No ${m.state === 'all' ? '' : `${m.state} `}${noun}.</p>`;
  return `<h1>${m.kind === 'pulls' ? 'Pull requests' : 'Issues'} <small>${escapeHtml(repoName)}</small></h1>${tabs(m)}${items}${pager(m, result.total)}`;
}

const EVENT_TEXT: Record<string, string> = {
  close: 'closed this',
  reopen: 'reopened this',
  lock: 'locked this conversation',
  unlock: 'unlocked this conversation',
  merge_pull: 'merged this pull request',
  pull_push: 'pushed commits',
};

function timelineItem(c: TimelineCommentDto): string {
  if (c.type === 'comment') {
    return `<article class="comment" id="issuecomment-${c.id}"><header><strong>${escapeHtml(c.user.login)}</strong>` +
      ` commented ${timeTag(c.created_at)}</header><div class="comment-body">${escapeHtml(c.body)}</div></article>`;
  }
  const reason = c.type === 'lock' && c.body ? ` as ${escapeHtml(c.body)}` : '';
  return `<p class="event" id="issuecomment-${c.id}"><strong>${escapeHtml(c.user.login)}</strong> ${escapeHtml(EVENT_TEXT[c.type] ?? c.type)}${reason} ${timeTag(c.created_at)}</p>`;
}

/** What the conversation part of an issue or pull-request page needs. */
export interface ConversationModel {
  issue: IssueDto;
  /** `/{owner}/{repo}/issues/{index}` or `/{owner}/{repo}/pulls/{index}` */
  path: string;
  timeline: TimelineCommentDto[];
  /** Signed in (anyone signed in may comment on an unlocked issue they can read). */
  signedIn: boolean;
  /** Write access: may comment on a locked issue, lock and unlock. */
  canWrite: boolean;
  csrfToken: string;
}

function commentForm(m: ConversationModel): string {
  if (!m.signedIn) return '<p class="muted">Sign in to join this conversation.</p>';
  if (m.issue.is_locked && !m.canWrite) {
    return '<p class="notice" role="status">This conversation is locked; only collaborators can comment.</p>';
  }
  return `<form method="post" action="${escapeHtml(m.path)}/comments" class="comment-form">${csrfField(m.csrfToken)}` +
    `<label for="comment-body">Add a comment</label><textarea id="comment-body" name="body" rows="5" required maxlength="65536"></textarea>` +
    `<button type="submit" class="button primary">Comment</button></form>`;
}

function lockForm(m: ConversationModel): string {
  if (!m.canWrite) return '';
  const action = m.issue.is_locked ? 'unlock' : 'lock';
  return `<form method="post" action="${escapeHtml(m.path)}/${action}" class="lock-form">${csrfField(m.csrfToken)}` +
    `<button type="submit" class="button">${m.issue.is_locked ? 'Unlock conversation' : 'Lock conversation'}</button></form>`;
}

function conversation(m: ConversationModel): string {
  const body = m.issue.body
    ? `<article class="comment"><header><strong>${escapeHtml(m.issue.user.login)}</strong> opened ${timeTag(m.issue.created_at)}</header><div class="comment-body">${escapeHtml(m.issue.body)}</div></article>`
    : '';
  return `<div class="timeline">${body}${m.timeline.map(timelineItem).join('')}</div>${commentForm(m)}${lockForm(m)}`;
}

function header(title: string, number: number, state: string, locked: boolean, reason: string | null): string {
  return `<h1><span id="issue-title">${escapeHtml(title)}</span> <small>#${number}</small></h1>` +
    `<p>${stateBadge(state)}${lockBadge(locked, reason)}</p>`;
}

/** An issue page: title, state, lock state, the timeline and the comment form. */
export function renderIssuePage(m: ConversationModel): string {
  return header(m.issue.title, m.issue.number, m.issue.state, m.issue.is_locked, m.issue.active_lock_reason) + conversation(m);
}

/** A pull-request page: like an issue page, plus branches and the self-reloading merge box. */
export function renderPullPage(pr: PullRequestDto, box: MergeBoxModel, talk: ConversationModel): string {
  const state = pr.merged ? 'merged' : pr.state;
  return header(pr.title, pr.number, state, pr.is_locked, pr.active_lock_reason) +
    `<p class="branches">${escapeHtml(pr.user.login)} wants to merge <code>${escapeHtml(pr.head.label)}</code> into <code>${escapeHtml(pr.base.label)}</code>` +
    ` · mergeable_state: <span id="mergeable-state">${escapeHtml(pr.mergeable_state)}</span></p>` +
    renderMergeBox(box) + conversation(talk);
}
