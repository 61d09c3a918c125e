import { describe, expect, it } from 'vitest';
import { branchMatches, GlobSyntaxError, validateBranchFilter } from './branch-filter.js';

describe('branch_filter (Gitea glob semantics)', () => {
  it('empty and * match every branch', () => {
    for (const b of ['main', 'feature/x', '']) {
      expect(branchMatches('', b)).toBe(true);
      expect(branchMatches('*', b)).toBe(true);
    }
  });

  it('matches the whole short name, literally otherwise', () => {
    expect(branchMatches('main', 'main')).toBe(true);
    expect(branchMatches('main', 'main2')).toBe(false);
    expect(branchMatches('main', 'xmain')).toBe(false);
    expect(branchMatches('release.1', 'releasex1')).toBe(false);
  });

  it('* and ** cross slashes (no separators, as Gitea compiles it)', () => {
    expect(branchMatches('feature*', 'feature/login')).toBe(true);
    expect(branchMatches('feature/*', 'feature/a/b')).toBe(true);
    expect(branchMatches('**/fix', 'team/a/fix')).toBe(true);
    expect(branchMatches('feature/*', 'features')).toBe(false);
  });

  it('? is exactly one character', () => {
    expect(branchMatches('v?', 'v1')).toBe(true);
    expect(branchMatches('v?', 'v10')).toBe(false);
    expect(branchMatches('v?', 'v')).toBe(false);
  });

  it('{a,b} alternatives, nested and with wildcards', () => {
    const f = '{master,feature*}';
    expect(branchMatches(f, 'master')).toBe(true);
    expect(branchMatches(f, 'feature/x')).toBe(true);
    expect(branchMatches(f, 'develop')).toBe(false);
    expect(branchMatches('{release/{1,2}.*,main}', 'release/2.0')).toBe(true);
    expect(branchMatches('{release/{1,2}.*,main}', 'release/3.0')).toBe(false);
    expect(branchMatches('a{,b}', 'a')).toBe(true);
  });

  it('character classes, ranges and their negation with !', () => {
    expect(branchMatches('v[0-9]', 'v7')).toBe(true);
    expect(branchMatches('v[0-9]', 'vx')).toBe(false);
    expect(branchMatches('[!m]*', 'main')).toBe(false);
    expect(branchMatches('[!m]*', 'dev')).toBe(true);
    expect(branchMatches('[abc]x', 'bx')).toBe(true);
    expect(branchMatches('[!a-c]x', 'bx')).toBe(false);
    expect(branchMatches('[!a-c]x', 'dx')).toBe(true);
  });

  it('backslash escapes a special character', () => {
    expect(branchMatches('a\\*', 'a*')).toBe(true);
    expect(branchMatches('a\\*', 'ab')).toBe(false);
    expect(branchMatches('\\{x\\}', '{x}')).toBe(true);
  });

  it('outside braces, commas and closing braces are literal', () => {
    expect(branchMatches('a,b', 'a,b')).toBe(true);
    expect(branchMatches('a}', 'a}')).toBe(true);
  });

  it('refuses malformed globs', () => {
    for (const bad of ['[abc', '{a,b', 'x\\', '[]', '[a-]', '[z-a]', '[a-cd]']) {
      expect(() => validateBranchFilter(bad), bad).toThrow(GlobSyntaxError);
    }
    expect(() => validateBranchFilter('{a,b}/[!x]?*')).not.toThrow();
  });

  it('an invalid stored filter matches nothing', () => {
    expect(branchMatches('[abc', 'a')).toBe(false);
  });
});
