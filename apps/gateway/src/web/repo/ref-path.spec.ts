import { describe, expect, it } from 'vitest';
import { likelyRefPath, refUrl, splitRefPath } from './ref-path.js';

const names = { branches: ['feature', 'feature/x', 'main'], tags: ['v1'], truncated: false };

describe('splitRefPath', () => {
  it('takes the longest branch name the path starts with', () => {
    expect(splitRefPath('branch', 'feature/x/src/a.ts', names)).toEqual({ kind: 'branch', ref: 'feature/x', path: 'src/a.ts' });
    expect(splitRefPath('branch', 'feature/y', names)).toEqual({ kind: 'branch', ref: 'feature', path: 'y' });
    expect(splitRefPath('branch', 'main', names)).toEqual({ kind: 'branch', ref: 'main', path: '' });
    expect(splitRefPath('tag', 'v1/README.md', names)).toEqual({ kind: 'tag', ref: 'v1', path: 'README.md' });
  });

  it('reads a commit id as the first segment', () => {
    expect(splitRefPath('commit', 'abc1234/docs', names)).toEqual({ kind: 'commit', ref: 'abc1234', path: 'docs' });
  });

  it('refuses unknown refs and non-ids', () => {
    expect(splitRefPath('branch', 'mainline/x', names)).toBeNull();
    expect(splitRefPath('tag', 'v2', names)).toBeNull();
    expect(splitRefPath('commit', '--all', names)).toBeNull();
  });
});

describe('refUrl', () => {
  it('encodes each segment', () => {
    expect(refUrl('/o/r', 'src', 'branch', 'feature/x', 'a b/c#d.md')).toBe('/o/r/src/branch/feature/x/a%20b/c%23d.md');
  });

  it('guesses the split of a name without a slash, which splitRefPath confirms or corrects', () => {
    expect(likelyRefPath('branch', 'main/docs/a.md/')).toEqual({ kind: 'branch', ref: 'main', path: 'docs/a.md' });
    expect(likelyRefPath('tag', 'v1')).toEqual({ kind: 'tag', ref: 'v1', path: '' });
    expect(likelyRefPath('branch', 'feature/x/a.md')).toEqual({ kind: 'branch', ref: 'feature', path: 'x/a.md' });
  });
});
