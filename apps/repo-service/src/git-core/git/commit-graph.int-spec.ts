import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommitGraphMaintainer } from './commit-graph-maintainer.js';
import { commitGraphState, gitSpawnStats, maintainCommitGraph } from '@cairn/git';
import { GitFixture, removeDir, tempDir } from '../../../../../test/support/git-fixture.js';

function git(bare: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', [`--git-dir=${bare}`, ...args], {
    env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...env },
  }).toString('utf8');
}

/** A repository with `commits` commits, each changing one of ten files (f0 … f9). */
function repoWithHistory(root: string, name: string, commits: number): GitFixture {
  const fx = new GitFixture(root, 'ann', name);
  for (let i = 0; i < commits; i++) {
    fx.commit({ message: `c${i}`, date: 1_700_000_000 + i * 60, files: { [`dir/f${i % 10}.txt`]: `${i}\n` } });
  }
  fx.publish();
  return fx;
}

/** From git's trace: commits the Bloom filters ruled out without a tree diff, and commits with no filter. */
function bloomStatistics(bare: string, file: string): { definitelyNot: number; notPresent: number } {
  const trace = path.join(path.dirname(bare), `trace-${process.hrtime.bigint()}.json`);
  git(bare, ['log', '--format=%H', 'main', '--', file], { GIT_TRACE2_EVENT: trace });
  type Stats = { definitely_not?: number; filter_not_present?: number };
  const event = readFileSync(trace, 'utf8')
    .split('\n')
    .map((l) => (l ? (JSON.parse(l) as { category?: string; key?: string; value?: Stats }) : {}))
    .find((e) => e.category === 'bloom' && e.key === 'statistics');
  rmSync(trace);
  const stats = event?.value ?? {};
  return { definitelyNot: stats.definitely_not ?? 0, notPresent: stats.filter_not_present ?? 0 };
}

describe('commit-graph maintenance (integration)', () => {
  let root: string;

  beforeAll(() => {
    root = tempDir('cairn-it-commit-graph-');
  });

  afterAll(() => {
    if (root) removeDir(root);
  });

  it('writes a commit-graph with Bloom filters that git log uses, then adds layers incrementally', async () => {
    const fx = repoWithHistory(root, 'fresh', 30);
    expect(await commitGraphState(fx.bare)).toBe('missing');
    expect(bloomStatistics(fx.bare, 'dir/f3.txt').definitelyNot).toBe(0);

    expect(await maintainCommitGraph(fx.bare)).toBe('split');
    expect(await commitGraphState(fx.bare)).toBe('with-filters');
    const chain = path.join(fx.bare, 'objects', 'info', 'commit-graphs', 'commit-graph-chain');
    expect(readFileSync(chain, 'utf8').trim().split('\n')).toHaveLength(1);
    // 30 commits, 3 of which touched the file: the filters rule out (nearly) all of the others.
    const stats = bloomStatistics(fx.bare, 'dir/f3.txt');
    expect(stats.notPresent).toBe(0);
    expect(stats.definitelyNot).toBeGreaterThan(20);

    // A small push later: a new layer on top, filters for the new commits too.
    fx.commit({ message: 'later', date: 1_700_100_000, files: { 'dir/f3.txt': 'later\n' } });
    fx.publish();
    expect(await maintainCommitGraph(fx.bare)).toBe('split');
    expect(readFileSync(chain, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(bloomStatistics(fx.bare, 'dir/f3.txt').notPresent).toBe(0);
    git(fx.bare, ['commit-graph', 'verify']);
  });

  it('rewrites a graph without Bloom filters (as git gc writes it) once, in full', async () => {
    const fx = repoWithHistory(root, 'collected', 20);
    git(fx.bare, ['gc', '--quiet']);
    expect(existsSync(path.join(fx.bare, 'objects', 'info', 'commit-graph'))).toBe(true);
    expect(await commitGraphState(fx.bare)).toBe('without-filters');

    expect(await maintainCommitGraph(fx.bare)).toBe('replace');
    expect(await commitGraphState(fx.bare)).toBe('with-filters');
    expect(bloomStatistics(fx.bare, 'dir/f1.txt').definitelyNot).toBeGreaterThan(10);
    // git gc keeps the filters from then on.
    git(fx.bare, ['gc', '--quiet']);
    expect(await commitGraphState(fx.bare)).toBe('with-filters');
    expect(await maintainCommitGraph(fx.bare)).toBe('split');
  });

  it('handles an empty repository', async () => {
    const fx = new GitFixture(root, 'ann', 'empty');
    expect(await maintainCommitGraph(fx.bare)).toBe('split');
  });

  describe('CommitGraphMaintainer', () => {
    const runs = () => gitSpawnStats.count('commit-graph');

    it('runs once for requests made together, and once more for requests made while it runs', async () => {
      const a = repoWithHistory(root, 'burst-a', 5);
      const b = repoWithHistory(root, 'burst-b', 5);
      const maintainer = new CommitGraphMaintainer({ concurrency: 1 });
      const before = runs();
      const first = [1, 2, 3].map(() => maintainer.schedule(a.bare));
      expect(new Set(first).size).toBe(1);
      await first[0];
      expect(runs() - before).toBe(1);
      expect(await commitGraphState(a.bare)).toBe('with-filters');

      // One run at a time: while `a` runs, requests for `b` wait and join each other; a request for `a` made
      // while it runs gets exactly one follow-up run.
      const running = maintainer.schedule(a.bare);
      await new Promise((resolve) => setImmediate(resolve));
      const followUps = [maintainer.schedule(a.bare), maintainer.schedule(a.bare)];
      const others = [maintainer.schedule(b.bare), maintainer.schedule(b.bare), maintainer.schedule(b.bare)];
      expect(followUps[0]).not.toBe(running);
      expect(followUps[1]).toBe(followUps[0]);
      expect(new Set(others).size).toBe(1);
      await maintainer.idle();
      expect(runs() - before).toBe(4); // a, a again, its follow-up, b
      expect(await commitGraphState(b.bare)).toBe('with-filters');
    });

    it('logs a failing git and carries on', async () => {
      const notARepository = path.join(root, 'not-a-repository.git');
      mkdirSync(notARepository);
      const ok = repoWithHistory(root, 'after-failure', 3);
      const maintainer = new CommitGraphMaintainer();
      const before = runs();
      await expect(maintainer.schedule(notARepository)).resolves.toBeUndefined();
      await expect(maintainer.schedule(path.join(root, 'missing', 'x.git'))).resolves.toBeUndefined();
      await maintainer.schedule(ok.bare);
      expect(runs() - before).toBe(3);
      expect(await commitGraphState(ok.bare)).toBe('with-filters');
    });

    it('starts nothing after shutdown and awaits the run in progress', async () => {
      const fx = repoWithHistory(root, 'shutdown', 3);
      const late = repoWithHistory(root, 'shutdown-late', 3);
      const maintainer = new CommitGraphMaintainer();
      const before = runs();
      const inProgress = maintainer.schedule(fx.bare);
      await new Promise((resolve) => setImmediate(resolve));
      let finished = false;
      void inProgress.then(() => (finished = true));
      await maintainer.onApplicationShutdown();
      expect(finished).toBe(true);
      expect(await commitGraphState(fx.bare)).toBe('with-filters');
      await maintainer.schedule(late.bare);
      expect(runs() - before).toBe(1);
      expect(await commitGraphState(late.bare)).toBe('missing');
    });
  });
});
