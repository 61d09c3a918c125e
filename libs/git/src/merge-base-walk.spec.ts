import { describe, expect, it } from 'vitest';
import { formatGitTime } from './commit-object.js';
import { findMergeBase, type CommitAncestry, type ReadCommits } from './merge-base-walk.js';

/** `graph('a:10', 'b:20 a', …)`: `<id>:<time> <parent…>`; the reader counts what it was asked. */
function graph(...entries: string[]): { read: ReadCommits; reads: string[] } {
  const commits = new Map<string, CommitAncestry>();
  for (const e of entries) {
    const [head, ...parents] = e.split(' ');
    const [id, time] = head.split(':');
    commits.set(id, { parents, committer: { name: 'C', email: 'c@x', date: formatGitTime(Number(time), '+0000') } });
  }
  const reads: string[] = [];
  return {
    reads,
    read: async (oids) => {
      reads.push(...oids);
      return oids.map((o) => commits.get(o) ?? null);
    },
  };
}

describe('findMergeBase', () => {
  it('finds the fork point of two branches', async () => {
    const g = graph('r0:0', 'r:1 r0', 'm:2 r', 'b1:3 m', 'b2:4 b1', 'h1:5 m', 'h2:6 h1');
    expect(await findMergeBase(g.read, 'b2', 'h2', 100)).toEqual({ kind: 'found', oid: 'm' });
    // The walk stops once only commits below the merge base are left: the history further down is not read.
    expect(g.reads).not.toContain('r0');
  });

  it('answers the commit itself when one is an ancestor of the other, or both are the same', async () => {
    const g = graph('r:1', 'a:2 r', 'b:3 a');
    expect(await findMergeBase(g.read, 'a', 'b', 100)).toEqual({ kind: 'found', oid: 'a' });
    expect(await findMergeBase(g.read, 'b', 'a', 100)).toEqual({ kind: 'found', oid: 'a' });
    expect(await findMergeBase(g.read, 'b', 'b', 100)).toEqual({ kind: 'found', oid: 'b' });
  });

  it('takes the newest common ancestor when the head merged the base meanwhile', async () => {
    // main: r - m1 - m2 - m3; topic: r - t1 - merge(t1, m2) - t2
    const g = graph('r:1', 'm1:2 r', 't1:3 r', 'm2:4 m1', 'x:5 t1 m2', 'm3:6 m2', 't2:7 x');
    expect(await findMergeBase(g.read, 'm3', 't2', 100)).toEqual({ kind: 'found', oid: 'm2' });
  });

  it('is not misled by clock skew (a parent newer than its child)', async () => {
    const g = graph('r:100', 'm:1 r', 'b:2 m', 'h:3 m', 'old:50 r');
    expect(await findMergeBase(g.read, 'b', 'h', 100)).toEqual({ kind: 'found', oid: 'm' });
    const skewed = graph('r:1', 'm:900 r', 'b1:2 m', 'b2:3 b1', 'h:4 m');
    expect(await findMergeBase(skewed.read, 'b2', 'h', 100)).toEqual({ kind: 'found', oid: 'm' });
  });

  it('leaves criss-cross histories (two best common ancestors) to git', async () => {
    // a and b both merge x and y: x and y are both best common ancestors.
    const g = graph('r:1', 'x:2 r', 'y:3 r', 'a:4 x y', 'b:5 y x');
    expect(await findMergeBase(g.read, 'a', 'b', 100)).toMatchObject({ kind: 'undecided' });
  });

  it('answers none for unrelated histories, and undecided for a missing commit or a walk over budget', async () => {
    const g = graph('a0:1', 'a1:2 a0', 'b0:3', 'b1:4 b0');
    expect(await findMergeBase(g.read, 'a1', 'b1', 100)).toEqual({ kind: 'none' });
    expect(await findMergeBase(g.read, 'a1', 'nope', 100)).toMatchObject({ kind: 'undecided' });
    const broken = graph('a:2 gone', 'b:3 gone');
    expect(await findMergeBase(broken.read, 'a', 'b', 100)).toMatchObject({ kind: 'undecided', reason: expect.stringContaining('gone') });
    const long = graph('r:0', ...Array.from({ length: 50 }, (_, i) => `c${i}:${i + 1} ${i ? `c${i - 1}` : 'r'}`), 'h:100 r');
    expect(await findMergeBase(long.read, 'c49', 'h', 10)).toMatchObject({ kind: 'undecided' });
    expect(await findMergeBase(long.read, 'c49', 'h', 1000)).toEqual({ kind: 'found', oid: 'r' });
  });
});
