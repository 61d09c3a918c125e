import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepoRefDto } from '@cairn/contracts';
import { CatFilePool, gitSpawnStats } from '@cairn/git';
import { GitReadContext } from '../git/git-read-context.js';
import { GitFixture, removeDir, tempDir } from '../../../../../test/support/git-fixture.js';
import { RefNamesService } from './ref-names.service.js';
import { refStoreStamp } from './ref-store-stamp.js';

const repo: RepoRefDto = { id: 1, ownerId: 1, ownerName: 'alice', name: 'names', defaultBranch: 'main' };

describe('ref names and the ref-store stamp over a real repository (integration)', () => {
  let root: string;
  let fx: GitFixture;
  let pool: CatFilePool;
  let svc: RefNamesService;

  beforeAll(() => {
    root = tempDir('cairn-it-ref-names-');
    fx = new GitFixture(root, 'alice', 'names');
    fx.commit({ message: 'first', date: '2024-01-01T00:00:00Z', files: { 'a.txt': 'a\n' } });
    fx.git('tag', 'v1');
    fx.git('branch', 'feature/x');
    fx.publish();
    pool = new CatFilePool({ maxProcesses: 2, idleTimeoutMs: 60_000 });
    svc = new RefNamesService(new GitReadContext(pool, root, 'http://cairn.test/', 50));
  });

  afterAll(() => {
    pool?.close();
    if (root) removeDir(root);
  });

  const bare = (...args: string[]) => execFileSync('git', [`--git-dir=${fx.bare}`, ...args], { stdio: 'ignore' });
  const list = () => svc.list({ actor: null, repo, access: 'read', limit: 50 });
  /** Waits until the last change is older than the racy window, i.e. until the stamp can be trusted. */
  async function settled(): Promise<string> {
    for (;;) {
      const stamp = await refStoreStamp(fx.bare);
      if (stamp !== null) return stamp;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const reads = () => gitSpawnStats.count('for-each-ref');

  it('does not trust a stamp right after a change, and changes it with every name added or removed', async () => {
    bare('branch', 'fresh', 'main');
    expect(await refStoreStamp(fx.bare)).toBeNull();
    const before = await settled();
    expect(await refStoreStamp(fx.bare)).toBe(before);
    bare('branch', 'feature/y', 'main'); // in the nested folder only
    const added = await settled();
    expect(added).not.toBe(before);
    bare('branch', '-D', 'fresh');
    expect(await settled()).not.toBe(added);
  });

  it('lists names once while the ref store is unchanged, and again after any change', async () => {
    await settled();
    await list();
    const first = reads();
    expect(await list()).toEqual({ branches: ['feature/x', 'feature/y', 'main'], tags: ['v1'], truncated: false });
    expect(reads()).toBe(first);

    // A new branch shows at once: the stamp of a change this recent is not trusted, so the names are read again.
    bare('branch', 'later', 'main');
    expect((await list()).branches).toEqual(['feature/x', 'feature/y', 'later', 'main']);
    expect(reads()).toBe(first + 1);

    bare('tag', '-d', 'v1');
    await settled();
    expect(await list()).toEqual({ branches: ['feature/x', 'feature/y', 'later', 'main'], tags: [], truncated: false });
    const afterTag = reads();
    await list();
    expect(reads()).toBe(afterTag);

    // Packing moves every loose ref into packed-refs: same names, a new stamp, read once more.
    bare('pack-refs', '--all');
    await settled();
    expect((await list()).branches).toEqual(['feature/x', 'feature/y', 'later', 'main']);
    expect(reads()).toBe(afterTag + 1);
    expect(await list()).toMatchObject({ truncated: false });
    expect(reads()).toBe(afterTag + 1);
  });

  it('cuts each kind at the limit and says so', async () => {
    expect(await svc.list({ actor: null, repo, access: 'read', limit: 2 })).toEqual({
      branches: ['feature/x', 'feature/y'], tags: [], truncated: true,
    });
  });
});
