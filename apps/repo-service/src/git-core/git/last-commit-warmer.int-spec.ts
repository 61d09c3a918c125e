import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommitGraphMaintainer } from './commit-graph-maintainer.js';
import {
  gitSpawnStats, LastCommitCache, lastCommitCache, lastCommitsForPaths, treePaths, warmLastCommits,
} from '@cairn/git';
import { GitFixture, removeDir, tempDir } from '../../../../../test/support/git-fixture.js';

const ZERO = '0'.repeat(40);

/** What `git log -1 -- <path>` says, one process per path: the reference the one-walk answer must match. */
function lastCommitOf(bare: string, commit: string, p: string): string {
  return execFileSync('git', [`--git-dir=${bare}`, 'log', '-1', '--format=%H', commit, '--', p]).toString().trim();
}

/** 90 files in nested directories and at the root, over 40 commits: more paths than the walk lists as pathspecs. */
function spreadRepo(root: string, name: string): GitFixture {
  const fx = new GitFixture(root, 'ann', name);
  const files = Array.from({ length: 90 }, (_, i) =>
    i % 4 === 0 ? `top${i}.txt` : i % 4 === 1 ? `a/f${i}.txt` : i % 4 === 2 ? `b/c/f${i}.txt` : `b/f${i}.txt`,
  );
  fx.commit({ message: 'all', date: 1_700_000_000, files: Object.fromEntries(files.map((f) => [f, 'start\n'])) });
  for (let i = 1; i <= 40; i++) {
    const touched = files.filter((_, j) => j % 40 === i % 40 || (i % 7 === 0 && j % 9 === i % 9));
    fx.commit({ message: `c${i}`, date: 1_700_000_000 + i * 60, files: Object.fromEntries(touched.map((f) => [f, `${i}\n`])) });
  }
  fx.publish();
  return fx;
}

describe('last-commit warm-up (integration)', () => {
  let root: string;

  beforeAll(() => {
    root = tempDir('cairn-it-warm-');
  });

  afterAll(() => {
    if (root) removeDir(root);
  });

  it('caches the last commit of every file and directory of the tree, as per-path git log finds it', async () => {
    const fx = spreadRepo(root, 'spread');
    const tip = fx.revParse('main');
    const paths = await treePaths(fx.bare, tip, 10_000, 10_000);
    expect(paths).toContain('b/c');
    expect(paths).toContain('b/c/f2.txt');
    expect(paths).toContain('top0.txt');
    expect(paths).toHaveLength(90 + 3);

    const cache = new LastCommitCache();
    const walks = gitSpawnStats.count('log');
    await expect(warmLastCommits(fx.bare, tip, { cache })).resolves.toEqual({ kind: 'warmed', paths: 93, found: 93 });
    // One walk for all 93 paths: their common directory is the root, so it runs without a pathspec.
    expect(gitSpawnStats.count('log') - walks).toBe(1);
    expect(cache.size).toBe(93);

    const uncached = await lastCommitsForPaths(fx.bare, tip, paths!, { cache: null });
    expect(uncached.size).toBe(93);
    for (const p of paths!) {
      expect(cache.get(fx.bare, tip, p), p).toEqual(uncached.get(p));
      expect(cache.get(fx.bare, tip, p)?.sha, p).toBe(lastCommitOf(fx.bare, tip, p));
    }
  });

  it('skips a tree with more entries than the bound, and warms one exactly at it', async () => {
    const fx = spreadRepo(root, 'bounded');
    const tip = fx.revParse('main');
    const cache = new LastCommitCache();
    await expect(warmLastCommits(fx.bare, tip, { cache, maxEntries: 92 })).resolves.toEqual({
      kind: 'too-large',
      maxEntries: 92,
    });
    expect(cache.size).toBe(0);
    await expect(warmLastCommits(fx.bare, tip, { cache, maxEntries: 93 })).resolves.toMatchObject({ found: 93 });
    expect(cache.size).toBe(93);
  });

  describe('after a push (CommitGraphMaintainer)', () => {
    it('warms the new tips of pushed branches (not deleted branches, not tags)', async () => {
      const fx = spreadRepo(root, 'pushed');
      fx.git('checkout', '-q', '-b', 'topic');
      fx.commit({ message: 'topic', date: 1_700_100_000, files: { 'a/topic.txt': 'x\n' } });
      fx.publish();
      const main = fx.revParse('main');
      const topic = fx.revParse('topic');
      const maintainer = new CommitGraphMaintainer();
      await maintainer.schedule(fx.bare, [
        { ref: 'refs/heads/topic', new: topic },
        { ref: 'refs/heads/gone', new: ZERO },
        { ref: 'refs/tags/v1', new: main },
        { ref: 'refs/heads/main', new: main },
      ]);
      for (const [tip, count] of [
        [main, 93],
        [topic, 94],
      ] as const) {
        const paths = (await treePaths(fx.bare, tip, 10_000, 10_000))!;
        expect(paths).toHaveLength(count);
        const expected = await lastCommitsForPaths(fx.bare, tip, paths, { cache: null });
        for (const p of paths) expect(lastCommitCache.get(fx.bare, tip, p), p).toEqual(expected.get(p));
      }
    });

    it('warms nothing above the bound, and nothing when no branch was pushed', async () => {
      const big = spreadRepo(root, 'pushed-big');
      const bigTip = big.revParse('main');
      await new CommitGraphMaintainer({ warmMaxEntries: 50 }).schedule(big.bare, [
        { ref: 'refs/heads/main', new: bigTip },
      ]);
      expect(lastCommitCache.get(big.bare, bigTip, 'top0.txt')).toBeUndefined();

      const quiet = spreadRepo(root, 'pushed-nothing');
      const quietTip = quiet.revParse('main');
      await new CommitGraphMaintainer().schedule(quiet.bare);
      expect(lastCommitCache.get(quiet.bare, quietTip, 'top0.txt')).toBeUndefined();
    });

    it('is awaited at shutdown', async () => {
      const fx = spreadRepo(root, 'pushed-shutdown');
      const tip = fx.revParse('main');
      const maintainer = new CommitGraphMaintainer();
      void maintainer.schedule(fx.bare, [{ ref: 'refs/heads/main', new: tip }]);
      await new Promise((resolve) => setImmediate(resolve));
      await maintainer.onApplicationShutdown();
      expect(lastCommitCache.get(fx.bare, tip, 'b/c')).toEqual(
        (await lastCommitsForPaths(fx.bare, tip, ['b/c'], { cache: null })).get('b/c'),
      );
      expect(lastCommitCache.get(fx.bare, tip, 'top0.txt')).toBeDefined();
    });
  });
});
