import { describe, expect, it } from 'vitest';
import { encodePathSegments, repoUrls } from './repo-urls.js';

const ROOT = 'https://git.example.com/';
const urls = repoUrls(ROOT, { ownerName: 'Alice', name: 'my.repo' });

describe('repository URLs', () => {
  it('builds the repository URLs as Gitea does', () => {
    expect(urls.html).toBe('https://git.example.com/Alice/my.repo');
    expect(urls.api).toBe('https://git.example.com/api/v1/repos/Alice/my.repo');
    expect(urls.clone).toBe('https://git.example.com/Alice/my.repo.git');
    expect(urls.commit('abc123')).toBe('https://git.example.com/Alice/my.repo/commit/abc123');
    expect(urls.compare('a1', 'b2')).toBe('https://git.example.com/Alice/my.repo/compare/a1...b2');
    expect(urls.issue(7)).toBe('https://git.example.com/Alice/my.repo/issues/7');
    expect(urls.issue(8, true)).toBe('https://git.example.com/Alice/my.repo/pulls/8');
    expect(urls.issueApi(8)).toBe('https://git.example.com/api/v1/repos/Alice/my.repo/issues/8');
  });

  it('writes ssh URLs scp-like on port 22 and as ssh:// elsewhere', () => {
    expect(urls.ssh({ sshUser: 'git', sshHost: 'git.example.com', sshPort: 22 })).toBe('git@git.example.com:Alice/my.repo.git');
    expect(urls.ssh({ sshUser: 'git', sshHost: 'h', sshPort: 2222 })).toBe('ssh://git@h:2222/Alice/my.repo.git');
  });

  it('encodes names, refs and paths that need it, keeping the path separators', () => {
    // Names outside today's alphabet still cannot break out of their segment.
    const odd = repoUrls(ROOT, { ownerName: 'a b', name: 'x#y?z' });
    expect(odd.html).toBe('https://git.example.com/a%20b/x%23y%3Fz');
    expect(odd.api).toBe('https://git.example.com/api/v1/repos/a%20b/x%23y%3Fz');
    expect(odd.ssh({ sshUser: 'git', sshHost: 'h', sshPort: 22 })).toBe('git@h:a%20b/x%23y%3Fz.git');
    expect(urls.src('branch', 'feature/100%#1', 'docs/read me?.md')).toBe(
      'https://git.example.com/Alice/my.repo/src/branch/feature/100%25%231/docs/read%20me%3F.md',
    );
    expect(urls.raw('tag', 'v1.0', 'ünï/c.txt')).toBe('https://git.example.com/Alice/my.repo/raw/tag/v1.0/%C3%BCn%C3%AF/c.txt');
    expect(urls.src('commit', 'abc')).toBe('https://git.example.com/Alice/my.repo/src/commit/abc');
    expect(urls.compare('main', 'a/b#c')).toBe('https://git.example.com/Alice/my.repo/compare/main...a/b%23c');
  });

  it('encodes each path segment on its own', () => {
    expect(encodePathSegments('a/b c/%')).toBe('a/b%20c/%25');
    expect(encodePathSegments('')).toBe('');
  });
});
