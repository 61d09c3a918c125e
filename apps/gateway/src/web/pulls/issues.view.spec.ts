import { describe, expect, it } from 'vitest';
import type { IssueDto, LabelDto, MilestoneDto, PullReviewDto, TimelineCommentDto, UserDto } from '@cairn/contracts';
import { createViews } from '../core/views.js';
import type { RepoHeader } from '../repo/repo-views.js';
import { conversationView, listQuery, listView, pullPushOf, type ConversationModel, type ListFilters } from './issues.view.js';

const views = createViews(false);
const user = { id: 1, login: 'alice' } as UserDto;
const bob = { id: 2, login: 'bob' } as UserDto;
const bug = { id: 3, name: 'bug', color: 'ee0701', description: '' } as LabelDto;
const v1 = { id: 4, title: 'v1' } as MilestoneDto;
const header = { owner: 'o', name: 'r', fullName: 'o/r', base: '/o/r', openIssues: 1, openPulls: 0 } as RepoHeader;
const noFilters: ListFilters = { labels: [], milestone: null, assignee: null, poster: null, q: '' };

function issue(over: Partial<IssueDto>): IssueDto {
  return {
    number: 7, title: 'Bug', body: 'it <breaks>', state: 'open', is_locked: false, active_lock_reason: null, comments: 1,
    created_at: '2026-11-01T10:00:00Z', user, pull_request: null, labels: [], milestone: null, assignees: null, ...over,
  } as IssueDto;
}

function model(over: Partial<ConversationModel>): ConversationModel {
  const comment = { id: 5, type: 'comment', body: '<img src=x onerror=alert(1)>', user, created_at: '2026-11-02T10:00:00Z' } as TimelineCommentDto;
  const lock = { id: 6, type: 'lock', body: 'spam', user, created_at: '2026-11-03T10:00:00Z' } as TimelineCommentDto;
  return {
    issue: issue({}), path: '/o/r/issues/7', timeline: [comment, lock], signedIn: true, canWrite: false,
    repoBase: '/o/r', defaultBranch: 'main', ...over,
  };
}

function issuePage(over: Partial<ConversationModel>): string {
  return views.render('pulls/issue', { talk: conversationView(model(over)), header, csrf: 'tok' });
}

describe('issue views', () => {
  it('lists issues with counts, labels, milestone, assignees, state tabs and a pager that keeps the filters', () => {
    const filters = { ...noFilters, labels: [3], q: 'crash' };
    const list = listView(
      { basePath: '/o/r/issues', kind: 'issues', state: 'all', page: 2, limit: 1, filters },
      { items: [issue({ title: '<x>', labels: [bug], milestone: v1, assignees: [bob], comments: 1 })], total: 3 },
      { open: 2, closed: 1 }, { labels: [bug], milestones: [v1], assignees: [bob], poster: null }, true,
    );
    const html = views.render('pulls/list', { list, header });
    expect(html).toContain('href="/o/r/issues/7">&lt;x&gt;</a>');
    expect(html).toContain('href="/o/r/issues?state=open&amp;labels=3&amp;q=crash">Open <span class="counter">2</span>');
    expect(html).toContain('Closed <span class="counter">1</span>');
    expect(html).toContain('<a class="label" href="/o/r/issues?labels=3"><img class="swatch" src="data:image/svg+xml,');
    expect(html).toContain('href="/o/r/issues?milestone=4">v1</a>');
    expect(html).toContain('1 comment<');
    expect(html).toContain('Assigned to bob');
    expect(html).toContain('<option value="3" selected>bug</option>');
    expect(html).toContain('href="/o/r/issues/new">New issue</a>');
    expect(html).toContain('Page 2 of 3');
    expect(html).toContain('rel="prev" href="/o/r/issues?state=all&amp;labels=3&amp;q=crash"');
    expect(html).toContain('class="repo-header"');
    const empty = listView(
      { basePath: '/o/r/pulls', kind: 'pulls', state: 'open', page: 1, limit: 30, filters: noFilters },
      { items: [], total: 0 }, { open: 0, closed: 0 }, { labels: [], milestones: [], assignees: [], poster: null }, false,
    );
    const none = views.render('pulls/list', { list: empty, header });
    expect(none).toContain('No open pull requests.');
    expect(none).not.toContain('New issue');
  });

  it('builds list query strings with only the filters set', () => {
    expect(listQuery(noFilters, 'open')).toBe('?state=open');
    expect(listQuery({ labels: [1, 2], milestone: 3, assignee: 4, poster: 5, q: 'a b' }, 'closed', 2))
      .toBe('?state=closed&labels=1%2C2&milestone=3&assignee=4&poster=5&q=a+b&page=2');
  });

  it('renders the timeline escaped, with avatars, relative times, lock events and their reason', () => {
    const html = issuePage({});
    expect(html).not.toContain('<img src="x"');
    expect(html).toContain('it &lt;breaks&gt;');
    expect(html).toContain('locked this conversation as spam');
    expect(html).toContain('id="issuecomment-5"');
    expect(html).toContain('src="/user/avatar/alice/40"');
    expect(html).toContain('<time datetime="2026-11-02T10:00:00.000Z" title="2026-11-02 10:00 UTC">');
  });

  it('words title, assignee, label and milestone changes with their details', () => {
    const at = '2026-11-04T10:00:00Z';
    const timeline = [
      { id: 20, type: 'change_title', old_title: 'Bug', new_title: 'Crash <on> start', user, created_at: at },
      { id: 21, type: 'assignees', assignee: bob, removed_assignee: false, user, created_at: at },
      { id: 22, type: 'assignees', assignee: user, removed_assignee: false, user, created_at: at },
      { id: 23, type: 'assignees', assignee: bob, removed_assignee: true, user, created_at: at },
      { id: 24, type: 'label', body: '1', label: bug, user, created_at: at },
      { id: 25, type: 'label', body: '', label: bug, user, created_at: at },
      { id: 26, type: 'milestone', milestone: v1, old_milestone: null, user, created_at: at },
      { id: 27, type: 'milestone', milestone: { ...v1, title: 'v2' }, old_milestone: v1, user, created_at: at },
      { id: 28, type: 'milestone', milestone: null, old_milestone: v1, user, created_at: at },
    ] as TimelineCommentDto[];
    const view = conversationView(model({ timeline }));
    expect(view.entries.map((e) => (e.kind === 'event' ? e.text : ''))).toEqual([
      'changed the title from “Bug” to “Crash <on> start”', 'assigned bob', 'self-assigned this', 'unassigned bob',
      'added the bug label', 'removed the bug label', 'added this to the v1 milestone', 'modified the milestone from v1 to v2',
      'removed this from the v1 milestone',
    ]);
    expect(views.render('pulls/conversation', { talk: view, csrf: 't' })).toContain('“Crash &lt;on&gt; start”');
  });

  it('puts reviews into the timeline by time, with their state', () => {
    const review = { id: 9, user: bob, state: 'APPROVED', body: 'LGTM #7', submitted_at: '2026-11-02T12:00:00Z', dismissed: false } as PullReviewDto;
    const changes = { ...review, id: 10, state: 'REQUEST_CHANGES', body: '', submitted_at: '2026-11-01T12:00:00Z' } as PullReviewDto;
    const pending = { ...review, id: 11, state: 'PENDING' } as PullReviewDto;
    const view = conversationView(model({ reviews: [review, changes, pending] }));
    expect(view.entries.map((e) => e.id)).toEqual(['pullrequestreview-10', 'issuecomment-5', 'pullrequestreview-9', 'issuecomment-6']);
    const html = views.render('pulls/conversation', { talk: view, csrf: 'tok' });
    expect(html).toContain('class="comment review review-approved" id="pullrequestreview-9"');
    expect(html).toContain('<strong>bob</strong> approved these changes');
    expect(html).toContain('<strong>bob</strong> requested changes');
    expect(html).toContain('<a href="/o/r/issues/7" class="ref" rel="nofollow noopener">#7</a>');
  });

  it('renders bodies as Markdown, relative links pointing at the default branch, raw HTML still escaped', () => {
    const html = issuePage({ issue: issue({ body: 'See **this** and [the docs](docs/a.md) <b>x</b>' }) });
    expect(html).toContain('<strong>this</strong>');
    expect(html).toContain('href="/o/r/src/branch/main/docs/a.md"');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
  });

  it('shows the lock state; a locked issue has no comment form for readers but has one for writers', () => {
    const locked = issue({ is_locked: true, active_lock_reason: 'too heated' });
    const reader = issuePage({ issue: locked });
    expect(reader).toContain('Locked as too heated');
    expect(reader).not.toContain('comment-form');
    expect(reader).not.toContain('lock-form');
    const writer = issuePage({ issue: locked, canWrite: true });
    expect(writer).toContain('action="/o/r/issues/7/comments"');
    expect(writer).toContain('action="/o/r/issues/7/unlock"');
    expect(writer).toContain('name="_csrf" value="tok"');
    expect(issuePage({ canWrite: true })).toContain('action="/o/r/issues/7/lock"');
    expect(issuePage({ signedIn: false })).toContain('to join this conversation.');
  });

  it('offers close/reopen and title editing to the author and writers only; the comment field is content', () => {
    const author = issuePage({ viewerId: 1 });
    expect(author).toContain('name="content"');
    expect(author).toContain('name="status" value="close">Close with comment');
    expect(author).toContain('action="/o/r/issues/7/title"');
    const other = issuePage({ viewerId: 2 });
    expect(other).not.toContain('Close with comment');
    expect(other).not.toContain('/title"');
    expect(issuePage({ viewerId: 2, canWrite: true, issue: issue({ state: 'closed' }) })).toContain('value="reopen">Reopen with comment');
    expect(conversationView(model({ canWrite: true })), 'merged pulls cannot be reopened').toMatchObject({ stateAction: 'close' });
    expect(conversationView(model({ canWrite: true }), 'merged').stateAction).toBeNull();
  });

  it('shows labels, milestone and assignees in the sidebar; writers get forms preset to the current values', () => {
    const labelled = issue({ labels: [bug], milestone: v1, assignees: [bob] });
    const choices = { labels: [bug, { ...bug, id: 8, name: 'docs' }], milestones: [v1], assignees: [user, bob] };
    const reader = issuePage({ issue: labelled, choices });
    expect(reader).toContain('href="/o/r/issues?labels=3"');
    expect(reader).toContain('href="/o/r/issues?milestone=4">v1</a>');
    expect(reader).toContain('src="/user/avatar/bob/40"');
    expect(reader).not.toContain('Save labels');
    const writer = issuePage({ issue: labelled, choices, canWrite: true });
    expect(writer).toContain('name="label_ids" value="3" checked');
    expect(writer).toContain('name="label_ids" value="8">');
    expect(writer).toContain('<option value="4" selected>v1</option>');
    expect(writer).toContain('name="assignee_ids" value="2" checked');
    expect(writer).toContain('name="assignee_ids" value="1">');
  });
});

describe('pullPushOf', () => {
  const a = 'a'.repeat(40);
  const b = 'b'.repeat(40);
  it("reads Gitea's pull_push body and refuses anything else", () => {
    expect(pullPushOf(JSON.stringify({ is_force_push: true, commit_ids: [a, b] }))).toEqual({ forced: true, commitIds: [a, b] });
    expect(pullPushOf(JSON.stringify({ is_force_push: false, commit_ids: [a, '<script>'] }))).toEqual({ forced: false, commitIds: [a] });
    expect(pullPushOf('not json')).toBeNull();
    expect(pullPushOf(JSON.stringify({ commit_ids: [a] }))).toBeNull();
  });
});
