import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatFilePool } from './cat-file-pool.js';
import { GitFixture, removeDir, tempDir } from '../../../test/support/git-fixture.js';
import { gitSpawnStats } from './git-process.js';

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

describe('CatFilePool (integration, real git)', () => {
  let root: string;
  let one: GitFixture;
  let two: GitFixture;
  const blobs: Buffer[] = [];

  beforeAll(() => {
    root = tempDir('cairn-it-pool-');
    one = new GitFixture(root, 'p', 'one');
    for (let i = 0; i < 40; i++) blobs.push(Buffer.from(`file ${i}\n`.repeat(i * 97 + 1)));
    one.commit({
      message: 'files',
      date: '2024-01-01T00:00:00Z',
      files: { ...Object.fromEntries(blobs.map((b, i) => [`f${i}.txt`, b])), 'empty.txt': '' },
    });
    one.publish();
    two = new GitFixture(root, 'p', 'two');
    two.commit({ message: 'x', date: '2024-01-01T00:00:00Z', files: { 'x.txt': 'x\n' } });
    two.publish();
  });
  afterAll(() => {
    if (root) removeDir(root);
  });

  it('answers pipelined lookups and reads in order, including missing objects and empty blobs', async () => {
    const pool = new CatFilePool({ maxProcesses: 2, idleTimeoutMs: 60_000 });
    try {
      const answers = await pool.run(one.bare, [
        { op: 'info', object: 'main:f3.txt' },
        { op: 'contents', object: 'main:f5.txt' },
        { op: 'info', object: 'main:nope' },
        { op: 'contents', object: 'main:nope' },
        { op: 'contents', object: 'main:empty.txt' },
        { op: 'contents', object: 'main:f39.txt' },
        { op: 'info', object: 'main^{tree}' },
      ]);
      expect(answers[0]).toMatchObject({ type: 'blob', size: blobs[3].length });
      expect(answers[1]!.data!.equals(blobs[5])).toBe(true);
      expect(answers[2]).toBeNull();
      expect(answers[3]).toBeNull();
      expect(answers[4]).toMatchObject({ type: 'blob', size: 0, data: Buffer.alloc(0) });
      expect(answers[5]!.data!.equals(blobs[39])).toBe(true);
      expect(answers[6]).toMatchObject({ type: 'tree' });
      await expect(pool.run(one.bare, [{ op: 'info', object: 'a\nb' }])).rejects.toThrow(/line break/);
    } finally {
      pool.close();
    }
  });

  it('serves concurrent requests for one repository from one process', async () => {
    const pool = new CatFilePool({ maxProcesses: 2, idleTimeoutMs: 60_000 });
    try {
      const before = gitSpawnStats.count('cat-file');
      const results = await Promise.all(
        blobs.map((_, i) => pool.one(one.bare, { op: 'contents', object: `main:f${i}.txt` })),
      );
      results.forEach((r, i) => expect(r!.data!.equals(blobs[i])).toBe(true));
      expect(gitSpawnStats.count('cat-file') - before).toBe(1);
      expect(pool.size).toBe(1);
    } finally {
      pool.close();
    }
  });

  it('keeps at most maxProcesses open: another repository waits for an idle process and takes its slot', async () => {
    const pool = new CatFilePool({ maxProcesses: 1, idleTimeoutMs: 60_000 });
    try {
      const a = pool.run(
        one.bare,
        blobs.map((_, i) => ({ op: 'contents' as const, object: `main:f${i}.txt` })),
      );
      const b = pool.one(two.bare, { op: 'contents', object: 'main:x.txt' });
      const [ra, rb] = await Promise.all([a, b]);
      expect(ra).toHaveLength(40);
      expect(rb!.data!.toString()).toBe('x\n');
      expect(pool.size).toBe(1);
      expect(pool.pidOf(two.bare)).toBeDefined();
      expect(pool.pidOf(one.bare)).toBeUndefined();
    } finally {
      pool.close();
    }
  });

  it('ends idle processes after the idle timeout and starts a new one when needed', async () => {
    const pool = new CatFilePool({ maxProcesses: 2, idleTimeoutMs: 20 });
    try {
      await pool.one(one.bare, { op: 'info', object: 'main' });
      expect(pool.size).toBe(1);
      await until(() => pool.size === 0);
      const again = await pool.one(one.bare, { op: 'info', object: 'main' });
      expect(again).toMatchObject({ type: 'commit' });
      expect(pool.spawned).toBe(2);
    } finally {
      pool.close();
    }
  });

  it('refuses repositories that do not exist', async () => {
    const pool = new CatFilePool({ maxProcesses: 2, idleTimeoutMs: 60_000 });
    try {
      await expect(pool.one(`${root}/p/missing.git`, { op: 'info', object: 'main' })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    } finally {
      pool.close();
    }
  });
});
