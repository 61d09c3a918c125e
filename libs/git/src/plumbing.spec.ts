import { describe, expect, it } from 'vitest';
import { commitMessageBytes, parseCommitObject } from './commit-object.js';
import { gitIdentity, parseNameStatus, parseNumstat } from './plumbing.js';
import { branchRef, pullHeadRef } from './refs.js';

describe('git output parsing', () => {
  it('reads numstat -z, including renames and binary files', () => {
    const raw = '3\t1\tsrc/a.ts\0-\t-\timg.png\0' + '2\t0\t\0old name.txt\0new name.txt\0';
    expect(parseNumstat(raw)).toEqual([
      { path: 'src/a.ts', additions: 3, deletions: 1, binary: false },
      { path: 'img.png', additions: 0, deletions: 0, binary: true },
      { path: 'new name.txt', previousPath: 'old name.txt', additions: 2, deletions: 0, binary: false },
    ]);
  });
  it('reads name-status -z', () => {
    const m = parseNameStatus('A\0x\0M\0y\0R100\0old\0new\0D\0z\0');
    expect([...m.entries()]).toEqual([['x', 'A'], ['y', 'M'], ['new', 'R'], ['z', 'D']]);
  });
  it('gives back a commit\'s author with its raw date, and its message bytes, as a replay keeps them', () => {
    const raw = Buffer.from(
      'tree 1111111111111111111111111111111111111111\n' +
        'parent 2222222222222222222222222222222222222222\n' +
        'author Ann Example <ann@example.com> 1700000000 +0100\n' +
        'committer Bob <bob@example.com> 1700000500 +0000\n\nSubject\n\nBody line\n',
    );
    const c = parseCommitObject(raw);
    expect(c.tree).toBe('1'.repeat(40));
    expect(c.parents).toEqual(['2'.repeat(40)]);
    expect(gitIdentity(c.author)).toEqual({ name: 'Ann Example', email: 'ann@example.com', date: '@1700000000 +0100' });
    expect(gitIdentity(c.committer)).toEqual({ name: 'Bob', email: 'bob@example.com', date: '@1700000500 +0000' });
    expect(commitMessageBytes(raw).toString()).toBe('Subject\n\nBody line\n');
  });
});

describe('refs handed to git', () => {
  it('accepts branch names and refuses option-like or malformed ones', () => {
    expect(branchRef('feature/x')).toBe('refs/heads/feature/x');
    // Pushed branches may start with '-' (git allows refs/heads/-x); the full ref is never read as an option.
    expect(branchRef('-x')).toBe('refs/heads/-x');
    expect(branchRef('--upload-pack=evil')).toBe('refs/heads/--upload-pack=evil');
    expect(() => branchRef('refs/heads/x')).toThrow();
    expect(() => branchRef('a..b')).toThrow();
    expect(() => branchRef('a b')).toThrow();
  });
  it('builds refs/pull/N/head only for positive integers', () => {
    expect(pullHeadRef(7)).toBe('refs/pull/7/head');
    expect(() => pullHeadRef(0)).toThrow();
    expect(() => pullHeadRef(1.5)).toThrow();
  });
});
