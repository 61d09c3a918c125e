import { describe, expect, it } from 'vitest';
import { createViews } from '../core/views.js';
import { diffView } from './diff-view.js';
import { verificationBadge } from './verification-badge.js';

const views = createViews(false);
const header = {
  owner: 'o', name: 'r', fullName: 'o/r', description: '<b>d</b>', isPrivate: true, empty: false, defaultBranch: 'main',
  base: '/o/r', cloneHttp: 'http://h/o/r.git', cloneSsh: 'ssh://git@h/o/r.git',
};
const ref = { kind: 'branch', ref: 'main', path: 'src', names: { branches: ['main'], tags: ['v1'], truncated: false } };
const switcher = { label: 'main', kindLabel: 'Branch', branches: [{ name: 'main', url: '/o/r/src/branch/main', current: true }], tags: [], truncated: false };
const badge = verificationBadge({ verified: true, reason: 'a / SHA256:k', signature: 's', payload: '', signer: null, trust_status: 'untrusted' });
const row = { sha: 'abc', shortSha: 'abc', title: '<i>t</i>', authorName: 'a', authorLogin: null, date: '2024-01-01T00:00:00Z', url: '/o/r/commit/abc', badge };
const empty = { items: [], total: 0, page: 1, prevUrl: null, nextUrl: null };

const render = (template: string, data: object) => views.render(template, { ...data, layout: {} });

describe('repository area templates', () => {
  it('render a tree with its README and escape what users wrote', () => {
    const html = render('repo/tree', {
      header, ref, switcher, historyUrl: '/h', crumbs: [{ name: 'r', url: '/o/r' }, { name: 'src', url: '/o/r/src/branch/main/src' }],
      entries: [{ name: '<x>.ts', type: 'file', url: '/o/r/src/branch/main/src/x' }], readme: { name: 'README.md', html: '<h1>Hi</h1>', markdown: true },
    });
    expect(html).toContain('&lt;b&gt;d&lt;/b&gt;');
    expect(html).toContain('&lt;x&gt;.ts');
    expect(html).toContain('<h1>Hi</h1>');
    expect(html).toContain('value="ssh://git@h/o/r.git"');
  });

  it('render file lines as highlighted HTML, and a too-large file as a raw link', () => {
    const file = { header, ref, switcher, historyUrl: '/h', crumbs: [], name: 'a.ts', size: 3, rawUrl: '/raw', binary: false, language: 'ts' };
    expect(render('repo/file', { ...file, lines: ['<span class="hljs-keyword">let</span>'], tooLarge: false }))
      .toContain('<td class="lc hljs"><span class="hljs-keyword">let</span></td>');
    expect(render('repo/file', { ...file, lines: null, tooLarge: true })).toMatch(/too large to show here\. <a href="\/raw">/);
  });

  it('render commits and a commit with badge, signer key and diff lines', () => {
    const list = render('repo/commits', { header, ref, switcher, commits: [row], page: 1, total: 1, prevUrl: null, nextUrl: '/n' });
    expect(list).toContain('&lt;i&gt;t&lt;/i&gt;');
    expect(list).toMatch(/class="badge badge-untrusted"[^>]*Key: SHA256:k\.">Untrusted</);
    const commit = render('repo/commit', {
      header, commit: { ...row, body: '', parents: ['p'], committerName: 'a', browseUrl: '/b' }, tooLarge: false,
      diff: diffView([{ oldPath: 'a', newPath: 'a', status: 'modified', binary: false, oldMode: null, newMode: null, blobs: null, additions: 1, deletions: 0,
        hunks: [{ header: '@@ -1 +1 @@', oldStart: 1, oldCount: 1, newStart: 1, newCount: 1, lines: [{ kind: 'add', oldNo: null, newNo: 1, text: '<script>' }] }] }],
      { style: 'unified' }),
    });
    expect(commit).toContain('<span class="mono key">SHA256:k</span>');
    expect(commit).toContain('&#60;script&#62;');
    expect(commit).not.toContain('<script>');
  });

  it('render the explore, profile, dashboard and empty pages', () => {
    expect(render('repo/explore-repos', { tab: 'repos', q: '"q"', list: empty })).toContain('value="&quot;q&quot;"');
    expect(render('repo/explore-owners', { tab: 'organizations', q: '', list: empty })).toContain('Nothing to show.');
    const profile = { login: 'a', fullName: '', description: '', url: '/a', isOrganization: true, website: 'javascript:alert(1)', location: '' };
    const html = render('repo/profile', { owner: profile, repos: empty });
    expect(html).toContain('>Organization<');
    expect(html).not.toContain('href="javascript:');
    expect(render('repo/dashboard', { login: 'a', repos: empty, orgs: [], unreadNotifications: 0, activity: [] })).toContain('You are not a member of any organization.');
    expect(render('repo/empty', { header })).toContain('git push -u origin main');
  });
});
