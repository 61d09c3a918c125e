// The worker's long-lived git processes against real repositories give the answers of one-shot merge-tree/merge-base.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gitEnvironment } from '@cairn/git';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from './git-check.js';
import { GitChecker } from './git-checker.js';

const IDENTITY = { GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' };
const GIT_ENV = gitEnvironment(IDENTITY);

let root: string;
let scratchRoot: string;
const previousTmp = process.env.TMPDIR;
let checker: GitChecker;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'cairn-it-git-checker-'));
  scratchRoot = path.join(root, 'tmp');
  execFileSync('mkdir', ['-p', scratchRoot]);
  process.env.TMPDIR = scratchRoot;
});

afterEach(async () => {
  await checker?.onApplicationShutdown();
});

afterAll(() => {
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
  if (root) rmSync(root, { recursive: true, force: true });
});

function git(dir: string, args: string[], input?: string, env: Record<string, string> = {}): string {
  return execFileSync('git', ['--git-dir', dir, ...args], { env: gitEnvironment({ ...IDENTITY, ...env }), input, encoding: 'utf8' }).trim();
}

let seq = 0;
/** A bare repository and a way to write commits into it directly: `commit(parents, files, time)`. */
function repo() {
  const dir = path.join(root, `r${++seq}.git`);
  execFileSync('git', ['init', '-q', '--bare', dir], { env: GIT_ENV });
  const commit = (parents: string[], files: Record<string, string>, time: number, message = 'c'): string => {
    const entries = Object.entries(files).map(([name, content]) => `100644 blob ${git(dir, ['hash-object', '-w', '--stdin'], content)}\t${name}`);
    const tree = git(dir, ['mktree'], entries.join('\n') + (entries.length ? '\n' : ''));
    const date = `@${1_700_000_000 + time} +0000`;
    return git(dir, ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-m', message], undefined, {
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    });
  };
  return { dir, commit };
}

function objectFiles(dir: string): string[] {
  return (readdirSync(path.join(dir, 'objects'), { recursive: true }) as string[]).sort();
}

function scratchDirs(): string[] {
  return readdirSync(scratchRoot).filter((n) => n.startsWith('cairn-merge-check-') && !n.includes('probe'));
}

describe('GitChecker', () => {
  it('answers what one merge-tree and one merge-base per check answer, clean and conflicted, on one reused session', async () => {
    checker = new GitChecker();
    const { dir, commit } = repo();
    const base0 = commit([], { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c d.txt': 'c\n' }, 1);
    const main = commit([base0], { 'a.txt': 'a main\n', 'b.txt': 'b\n', 'c d.txt': 'c main\n' }, 10);
    const heads = [
      commit([base0], { 'a.txt': 'a\n', 'b.txt': 'b head\n', 'c d.txt': 'c\n' }, 5), // clean
      commit([base0], { 'a.txt': 'a head\n', 'b.txt': 'b\n', 'c d.txt': 'c head\n' }, 6), // two conflicts
      commit([main], { 'a.txt': 'a main\n', 'b.txt': 'b\n', 'c d.txt': 'c main\n', 'new.txt': 'n\n' }, 11), // ahead
      main, // the base itself
    ];
    for (const head of heads) {
      const ours = await checker.check(dir, main, head, 10_000);
      const spawned = await runCheck(dir, main, head, 10_000);
      expect(ours).toEqual(spawned);
      expect(ours.mergeBase).toBe(git(dir, ['merge-base', main, head]));
    }
    expect((await checker.check(dir, main, heads[1], 10_000)).conflictedFiles.sort()).toEqual(['a.txt', 'c d.txt']);
    expect(checker.sessions).toBe(1);
  });

  it('finds the merge base git finds in awkward histories (head merged the base, clock skew, criss-cross)', async () => {
    checker = new GitChecker();
    const { dir, commit } = repo();
    const r = commit([], { f: '0\n' }, 1);
    const m1 = commit([r], { f: '0\n', m: '1\n' }, 2);
    const t1 = commit([r], { f: '0\n', t: '1\n' }, 3);
    const m2 = commit([m1], { f: '0\n', m: '2\n' }, 4);
    const tm = commit([t1, m2], { f: '0\n', m: '2\n', t: '1\n' }, 5); // the topic merged main
    const m3 = commit([m2], { f: '0\n', m: '3\n' }, 6);
    const t2 = commit([tm], { f: '0\n', m: '2\n', t: '2\n' }, 7);
    // A parent far newer than its children (skewed clocks).
    const skew = commit([r], { f: '0\n', s: '1\n' }, 900);
    const s1 = commit([skew], { f: '0\n', s: '2\n' }, 8);
    const s2 = commit([skew], { f: '0\n', s: '1\n', z: '1\n' }, 9);
    // Criss-cross: a and b each merge x and y.
    const x = commit([r], { f: '0\n', x: '1\n' }, 10);
    const y = commit([r], { f: '0\n', y: '1\n' }, 11);
    const a = commit([x, y], { f: '0\n', x: '1\n', y: '1\n' }, 12);
    const b = commit([y, x], { f: '0\n', x: '1\n', y: '1\n' }, 13);
    for (const [base, head] of [[m3, t2], [t2, m3], [s1, s2], [a, b], [m3, m3], [r, t2]]) {
      const result = await checker.check(dir, base, head, 10_000);
      expect(result.mergeBase, `${base}..${head}`).toBe(git(dir, ['merge-base', base, head]));
    }
  });

  it('never writes into the repository: merged trees go to a scratch directory that goes with its session', async () => {
    checker = new GitChecker();
    const { dir, commit } = repo();
    const base0 = commit([], { 'a.txt': 'a\n' }, 1);
    const main = commit([base0], { 'a.txt': 'a\n', 'm.txt': 'm\n' }, 2);
    const heads = Array.from({ length: 5 }, (_, i) => commit([base0], { 'a.txt': 'a\n', [`h${i}.txt`]: `${i}\n` }, 3 + i));
    execFileSync('git', ['--git-dir', dir, 'repack', '-a', '-d', '-q'], { env: GIT_ENV });
    const before = objectFiles(dir);
    for (const head of heads) expect((await checker.check(dir, main, head, 10_000)).status).toBe('mergeable');
    expect(objectFiles(dir)).toEqual(before);
    // The merged trees exist only in the session's scratch directory.
    const [scratch] = scratchDirs();
    expect(scratch).toBeDefined();
    const merged = git(dir, ['merge-tree', '--write-tree', main, heads[0]], undefined, {
      GIT_OBJECT_DIRECTORY: path.join(scratchRoot, scratch),
      GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(dir, 'objects'),
    });
    expect(() => git(dir, ['cat-file', '-e', merged])).toThrow();
    expect(readdirSync(path.join(scratchRoot, scratch)).length).toBeGreaterThan(0);
    await checker.onApplicationShutdown();
    expect(scratchDirs()).toEqual([]);
    expect(existsSync(path.join(scratchRoot, scratch))).toBe(false);
  });

  it('a merge git refuses ends its session with an error result; the next check gets a new one', async () => {
    checker = new GitChecker();
    const { dir, commit } = repo();
    const base = commit([], { f: '1\n' }, 1);
    const head = commit([base], { f: '2\n' }, 2);
    const unrelated = commit([], { g: '1\n' }, 3);
    expect((await checker.check(dir, base, head, 10_000)).status).toBe('mergeable');
    const unknown = await checker.check(dir, base, 'f'.repeat(40), 10_000);
    expect(unknown).toMatchObject({ status: 'error', message: expect.stringContaining('not something we can merge') });
    const refused = await checker.check(dir, base, unrelated, 10_000);
    expect(refused).toMatchObject({ status: 'error', message: expect.stringContaining('unrelated histories') });
    expect(await checker.check(dir, base, head, 10_000)).toMatchObject({ status: 'mergeable', mergeBase: base });
    expect(checker.sessions).toBe(1);
  });

  it('keeps answering after the repository was repacked under a live session', async () => {
    checker = new GitChecker();
    const { dir, commit } = repo();
    const base = commit([], { f: '1\n' }, 1);
    const h1 = commit([base], { f: '1\n', a: '1\n' }, 2);
    expect((await checker.check(dir, base, h1, 10_000)).status).toBe('mergeable');
    const h2 = commit([base], { f: '2\n' }, 3);
    execFileSync('git', ['--git-dir', dir, 'repack', '-a', '-d', '-q'], { env: GIT_ENV });
    execFileSync('git', ['--git-dir', dir, 'prune-packed'], { env: GIT_ENV });
    const h3 = commit([h2], { f: '3\n' }, 4);
    expect(await checker.check(dir, base, h2, 10_000)).toMatchObject({ status: 'mergeable', mergeBase: base });
    expect(await checker.check(dir, h1, h3, 10_000)).toMatchObject({ status: 'mergeable', mergeBase: base });
  });

  it('records a merge exceeding its time limit as an error, and the next check still runs', async () => {
    checker = new GitChecker();
    const { dir, commit } = repo();
    const lines = Array.from({ length: 30_000 }, (_, i) => `line ${i} ${'x'.repeat(20)}`);
    const base0 = commit([], { 'big.txt': `${lines.join('\n')}\n` }, 1);
    const ours = commit([base0], { 'big.txt': `${lines.map((l, i) => (i % 3 === 0 ? `${l} ours` : l)).join('\n')}\n` }, 2);
    const theirs = commit([base0], { 'big.txt': `${lines.map((l, i) => (i % 3 === 1 ? `${l} theirs` : l)).join('\n')}\n` }, 3);
    const slow = await checker.check(dir, ours, theirs, 1);
    expect(slow).toMatchObject({ status: 'error', message: expect.stringMatching(/time limit/) });
    const small = commit([base0], { 'big.txt': `${lines.join('\n')}\n`, 'x.txt': 'x\n' }, 4);
    expect(await checker.check(dir, base0, small, 10_000)).toMatchObject({ status: 'mergeable' });
  });

  it('keeps one session per repository and ends them all at shutdown', async () => {
    checker = new GitChecker();
    const one = repo();
    const two = repo();
    const c1 = one.commit([], { f: '1\n' }, 1);
    const c2 = two.commit([], { f: '1\n' }, 1);
    for (let i = 0; i < 3; i++) {
      await checker.check(one.dir, c1, c1, 10_000);
      await checker.check(two.dir, c2, c2, 10_000);
    }
    expect(checker.sessions).toBe(2);
    await Promise.all([checker.check(one.dir, c1, c1, 10_000), checker.check(one.dir, c1, c1, 10_000)]);
    expect(checker.sessions).toBe(3);
    await checker.onApplicationShutdown();
    expect(checker.sessions).toBe(0);
    expect(scratchDirs()).toEqual([]);
  });
});
