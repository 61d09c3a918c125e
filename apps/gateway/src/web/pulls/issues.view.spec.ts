import { describe, expect, it } from 'vitest';
import type { IssueDto, TimelineCommentDto } from '@cairn/contracts';
import { createViews } from '../core/views.js';
import { conversationView, listView, type ConversationModel } from './issues.view.js';

const views = createViews(false);
const user = { login: 'alice' } as IssueDto['user'];

function issue(over: Partial<IssueDto>): IssueDto {
  return {
    number: 7, title: 'Bug', body: 'it <breaks>', state: 'open', is_locked: false, active_lock_reason: null, comments: 1,
    created_at: '2026-11-01T10:00:00Z', user, pull_request: null, ...over,
  } as IssueDto;
}

function issuePage(over: Partial<ConversationModel>): string {
  const comment = { id: 5, type: 'comment', body: '<img src=x onerror=alert(1)>', user, created_at: '2026-11-02T10:00:00Z' } as TimelineCommentDto;
  const lock = { id: 6, type: 'lock', body: 'spam', user, created_at: '2026-11-03T10:00:00Z' } as TimelineCommentDto;
  const model: ConversationModel = {
    issue: issue({}), path: '/o/r/issues/7', timeline: [comment, lock], signedIn: true, canWrite: false,
    repoBase: '/o/r', defaultBranch: 'main', ...over,
  };
  return views.render('pulls/issue', { talk: conversationView(model), csrf: 'tok' });
}

describe('issue views', () => {
  it('lists issues with state tabs, merged pulls and a pager', () => {
    const list = listView(
      { basePath: '/o/r/pulls', kind: 'pulls', state: 'all', page: 2, limit: 1 },
      { items: [issue({ title: '<x>', pull_request: { merged: true } as IssueDto['pull_request'] })], total: 3 },
      'o/r',
    );
    const html = views.render('pulls/list', { list });
    expect(html).toContain('href="/o/r/pulls/7">&lt;x&gt;</a>');
    expect(html).toContain('badge-merged');
    expect(html).toContain('href="/o/r/pulls?state=all" aria-current="page"');
    expect(html).toContain('Page 2 of 3');
    expect(html).toContain('rel="prev" href="/o/r/pulls?state=all&amp;page=1"');
    expect(html).toContain('rel="next"');
    const empty = listView({ basePath: '/o/r/issues', kind: 'issues', state: 'open', page: 1, limit: 30 }, { items: [], total: 0 }, 'o/r');
    expect(views.render('pulls/list', { list: empty })).toContain('No open issues.');
  });

  it('renders the timeline escaped, with lock events and their reason', () => {
    const html = issuePage({});
    expect(html).not.toContain('<img');
    expect(html).toContain('it &lt;breaks&gt;');
    expect(html).toContain('locked this conversation as spam');
    expect(html).toContain('id="issuecomment-5"');
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
});
