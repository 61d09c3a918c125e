import { describe, expect, it } from 'vitest';
import { checkRepoName, isValidBranchName } from '@cairn/contracts';

describe('checkRepoName', () => {
  it.each(['cairn', 'my-repo', 'my_repo', 'repo.js', 'A1', '_x', 'a'.repeat(100)])('accepts %s', (name) => {
    expect(checkRepoName(name)).toBeNull();
  });

  it.each(['', 'a b', 'a/b', 'ünï', 'a..b', 'repo!', 'a'.repeat(101), '..x'])('calls %j invalid', (name) => {
    expect(checkRepoName(name)).toMatchObject({ problem: 'invalid', message: expect.stringContaining('name is invalid') });
  });

  it.each(['.', '..', '-', 'api', 'assets', 'wiki', 'API', 'Wiki'])('calls %j reserved', (name) => {
    expect(checkRepoName(name)).toEqual({ problem: 'reserved', message: `name is reserved [name: ${name}]` });
  });

  it.each([
    ['foo.git', '*.git'],
    ['Foo.GIT', '*.git'],
    ['docs.wiki', '*.wiki'],
    ['feed.rss', '*.rss'],
    ['feed.atom', '*.atom'],
  ])('refuses the pattern of %s', (name, pattern) => {
    expect(checkRepoName(name)).toEqual({ problem: 'pattern', message: `name pattern is not allowed [pattern: ${pattern}]` });
  });
});

describe('isValidBranchName', () => {
  it.each(['main', 'master', 'feature/x', 'release-1.0', 'v1.2.3', 'a/b/c', 'fix_#12', 'user@host', 'ünïcode'])(
    'accepts %s',
    (name) => {
      expect(isValidBranchName(name)).toBe(true);
    },
  );

  it.each([
    '', '-main', 'HEAD', '@', 'a..b', 'a b', 'a~1', 'a^', 'a:b', 'a?', 'a*', 'a[b', 'a\\b', '/a', 'a/', 'a//b', 'a.',
    '.hidden', 'a/.b', 'x.lock', 'a/b.lock/c', 'a@{1}', 'tab\there', 'nl\n', 'del\x7f', 'x'.repeat(101),
  ])('refuses %j', (name) => {
    expect(isValidBranchName(name)).toBe(false);
  });
});
