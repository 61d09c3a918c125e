import { describe, expect, it } from 'vitest';
import { parseBlamePorcelain } from './blame.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('parseBlamePorcelain', () => {
  it('merges neighbouring lines of one commit and lists each commit once, with its author and zone', () => {
    const out = [
      `${A} 1 1 2`, 'author Ann', 'author-mail <ann@example.com>', 'author-time 1700000000', 'author-tz +0200',
      'committer Ann', 'summary first', 'filename f.txt', '\tone',
      `${A} 2 2`, '\ttwo',
      `${B} 3 3 1`, 'author Bob', 'author-mail <bob@example.com>', 'author-time 1700000060', 'author-tz -0130',
      'summary second', 'previous x f.txt', 'filename f.txt', '\tthree',
      `${A} 3 4 1`, 'filename f.txt', '\tfour',
      '',
    ].join('\n');
    const { ranges, commits } = parseBlamePorcelain(out);
    expect(ranges).toEqual([
      { sha: A, start: 1, count: 2 },
      { sha: B, start: 3, count: 1 },
      { sha: A, start: 4, count: 1 },
    ]);
    expect(commits).toEqual([
      { sha: A, summary: 'first', authorName: 'Ann', authorEmail: 'ann@example.com', authorDate: '2023-11-15T00:13:20+02:00' },
      { sha: B, summary: 'second', authorName: 'Bob', authorEmail: 'bob@example.com', authorDate: '2023-11-14T20:44:20-01:30' },
    ]);
  });

  it('gives nothing for no output', () => {
    expect(parseBlamePorcelain('')).toEqual({ ranges: [], commits: [] });
  });
});
