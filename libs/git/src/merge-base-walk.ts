import type { ParsedCommitObject } from './commit-object.js';

export type CommitAncestry = Pick<ParsedCommitObject, 'parents' | 'committer'>;

export type ReadCommits = (oids: string[]) => Promise<(CommitAncestry | null)[]>;

/** Criss-cross merges (git's choice is the rule), a missing commit or an exhausted budget. */
export type MergeBaseAnswer = { kind: 'found'; oid: string } | { kind: 'none' } | { kind: 'undecided'; reason: string };

function timeOf(commit: CommitAncestry): number {
  return Date.parse(commit.committer.date) / 1000;
}

const ONE = 1;
const TWO = 2;
const STALE = 4;
const RESULT = 8;

/** Newest first, as git walks them. */
class NewestFirst {
  private readonly items: { oid: string; time: number }[] = [];

  get size(): number {
    return this.items.length;
  }

  some(test: (oid: string) => boolean): boolean {
    return this.items.some((i) => test(i.oid));
  }

  push(oid: string, time: number): void {
    const a = this.items;
    a.push({ oid, time });
    let i = a.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (a[up].time >= a[i].time) break;
      [a[up], a[i]] = [a[i], a[up]];
      i = up;
    }
  }

  pop(): string {
    const a = this.items;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l].time > a[m].time) m = l;
        if (r < a.length && a[r].time > a[m].time) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top.oid;
  }
}

/** Beside `git merge-base` because the worker reuses its cat-file process (bench/README.md); several candidates are left to git. */
export async function findMergeBase(read: ReadCommits, a: string, b: string, maxCommits: number): Promise<MergeBaseAnswer> {
  const links = new Map<string, CommitAncestry>();
  const [la, lb] = await read(a === b ? [a] : [a, b]);
  if (!la || (a !== b && !lb)) return { kind: 'undecided', reason: 'a commit is missing' };
  if (a === b) return { kind: 'found', oid: a };
  links.set(a, la);
  links.set(b, lb!);
  const flags = new Map<string, number>([
    [a, ONE],
    [b, TWO],
  ]);
  const queue = new NewestFirst();
  queue.push(a, timeOf(la));
  queue.push(b, timeOf(lb!));
  const found: string[] = [];
  let visited = 0;
  const flagsOf = (oid: string) => flags.get(oid) ?? 0;
  while (queue.some((oid) => (flagsOf(oid) & STALE) === 0)) {
    if (++visited > maxCommits) return { kind: 'undecided', reason: `more than ${maxCommits} commits to walk` };
    const c = queue.pop();
    let paint = flagsOf(c) & (ONE | TWO | STALE);
    if (paint === (ONE | TWO)) {
      if ((flagsOf(c) & RESULT) === 0) {
        flags.set(c, flagsOf(c) | RESULT);
        found.push(c);
      }
      paint |= STALE;
    }
    const next = links.get(c)!.parents.filter((p) => (flagsOf(p) & paint) !== paint);
    const unknown = next.filter((p) => !links.has(p));
    if (unknown.length) {
      const read_ = await read(unknown);
      for (let i = 0; i < unknown.length; i++) {
        const l = read_[i];
        if (!l) return { kind: 'undecided', reason: `commit ${unknown[i]} is missing` };
        links.set(unknown[i], l);
      }
    }
    for (const p of next) {
      flags.set(p, flagsOf(p) | paint);
      queue.push(p, timeOf(links.get(p)!));
    }
  }
  const best = found.filter((c) => (flagsOf(c) & STALE) === 0);
  if (best.length === 1) return { kind: 'found', oid: best[0] };
  if (best.length === 0) return { kind: 'none' };
  return { kind: 'undecided', reason: `${best.length} best common ancestors` };
}
