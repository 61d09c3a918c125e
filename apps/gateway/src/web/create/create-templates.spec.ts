import { describe, expect, it } from 'vitest';
import type { NotificationThreadDto } from '@cairn/contracts';
import { createViews } from '../core/views.js';
import { sitePath, threadView } from '../notifications/notifications.view.js';

const views = createViews(false);
const layout = (over: object = {}) => ({
  title: 'x', actor: null, user: null, csrf: 't', flash: [], twoFactorAlert: false, appName: 'Cairn', registration: true, path: '/', ...over,
});

describe('shell templates', () => {
  it('shows Register beside Sign in only while registration is open, and the + menu to signed-in users', () => {
    expect(views.render('core/layout', { layout: layout(), body: '' })).toContain('<a href="/user/sign_up">Register</a>');
    expect(views.render('core/layout', { layout: layout({ registration: false }), body: '' })).not.toContain('sign_up');
    const signedIn = views.render('core/layout', { layout: layout({ actor: { login: 'al', isAdmin: false } }), body: '' });
    expect(signedIn).toContain('<li><a href="/repo/create">New repository</a></li>');
    expect(signedIn).toContain('<li><a href="/org/create">New organization</a></li>');
    expect(signedIn).not.toContain('Register');
  });

  it('renders the sign-up form with Gitea field names, or says registration is closed', () => {
    const open = views.render('auth/sign-up', { userName: 'a<b', email: '', closed: false, minLength: 8, csrf: 'tok' });
    for (const name of ['user_name', 'email', 'password', 'retype', '_csrf']) expect(open).toContain(`name="${name}"`);
    expect(open).toContain('value="a&lt;b"');
    const closed = views.render('auth/sign-up', { userName: '', email: '', closed: true, minLength: 8, csrf: 'tok' });
    expect(closed).toContain('Registration is disabled');
    expect(closed).not.toContain('<form');
  });

  it('renders the new-repository form with the owner picker preselected, and the organization form', () => {
    const html = views.render('create/repo', {
      owners: [{ id: 1, login: 'al', kind: 'self' }, { id: 9, login: 'acme', kind: 'org' }],
      form: {
        uid: '9', repo_name: '', description: '', private: true, auto_init: true, readme: 'Default', default_branch: '',
        gitignores: ['Go'], license: 'MIT',
      },
      readmes: ['Default'], gitignores: ['C++', 'Go'],
      licenses: [{ key: 'Apache-2.0', name: 'Apache License 2.0' }, { key: 'MIT', name: 'MIT License' }], csrf: 'tok',
    });
    expect(html).toContain('<option value="9" selected>acme</option>');
    expect(html).toContain('name="private" value="on" checked');
    expect(html).toContain('name="auto_init" value="on" checked');
    for (const name of ['uid', 'repo_name', 'description', 'readme', 'gitignores', 'license', 'default_branch']) {
      expect(html).toContain(`name="${name}"`);
    }
    expect(html).toContain('<option value="C++">C++</option>');
    expect(html).toContain('<option value="Go" selected>Go</option>');
    expect(html).toContain('<option value="MIT" selected>MIT License</option>');
    expect(html).not.toContain('no <code>.gitignore</code>');
    const org = views.render('create/org', { form: { org_name: '', visibility: 'limited' }, visibilities: ['public', 'limited', 'private'], csrf: 't' });
    expect(org).toContain('name="visibility" value="limited" checked');
  });

  it('shows notification threads as site links with a mark-as-read form', () => {
    const thread = {
      id: 4, repository: { full_name: 'o/r' }, unread: true, pinned: false, updated_at: '2026-11-28T10:00:00Z',
      subject: { title: 'Bug', html_url: 'http://cairn.test:3000/o/r/issues/2', type: 'Issue', state: 'open' },
    } as NotificationThreadDto;
    expect(threadView(thread)).toMatchObject({ href: '/o/r/issues/2', kind: 'issue', repo: 'o/r' });
    expect(sitePath('not a url')).toBe('#');
    const html = views.render('notifications/list', {
      read: false, unreadCount: 1, threads: [threadView(thread)], page: 1, prevUrl: null, nextUrl: null,
      tabs: [{ href: '/notifications', label: 'Unread', current: true }], csrf: 'tok',
    });
    expect(html).toContain('<a href="/o/r/issues/2">Bug</a>');
    expect(html).toContain('name="notification_id" value="4"');
    expect(html).toContain('value="read">Mark as read');
  });
});
