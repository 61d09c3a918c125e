import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLAME_MAX_BYTES, DomainError, ErrorCode, type BlameRequest, type RepoRefDto } from '@cairn/contracts';
import { CatFilePool } from '@cairn/git';
import { GitReadContext } from '../../git-core/git/git-read-context.js';
import { GitFixture, removeDir, tempDir } from '../../../../../test/support/git-fixture.js';
import { BlameService } from './blame.service.js';

const repo: RepoRefDto = { id: 1, ownerId: 2, ownerName: 'bob', name: 'blamed', defaultBranch: 'main' };

describe('blame over a real repository (integration, real git)', () => {
  let root: string;
  let pool: CatFilePool;
  let blames: BlameService;
  const c: string[] = [];

  beforeAll(() => {
    root = tempDir('cairn-it-blame-');
    const fx = new GitFixture(root, 'bob', 'blamed');
    const ann = { name: 'Ann', email: 'ann@example.com' };
    const bob = { name: 'Bob', email: 'bob@example.com' };
    c[1] = fx.commit({ message: 'one\n\nbody', date: '2024-01-01T00:00:00+02:00', author: ann, files: { 'a.txt': 'a\nb\nc\nd\n', 'bin.dat': Buffer.from([1, 0, 2]) } });
    c[2] = fx.commit({ message: 'two', date: 1_704_100_000, author: bob, files: { 'a.txt': 'a\nB\nC\nd\n', 'big.txt': 'x'.repeat(BLAME_MAX_BYTES + 1) } });
    fx.git('tag', 'v1', c[1]);
    fx.publish();
    pool = new CatFilePool({ maxProcesses: 2, idleTimeoutMs: 60_000 });
    blames = new BlameService(new GitReadContext(pool, root, 'http://cairn.test/', 50));
  });

  afterAll(() => {
    pool?.close();
    if (root) removeDir(root);
  });

  const blame = (path: string, ref?: string) => blames.blame({ actor: null, repo, access: 'read', path, ref } as BlameRequest);
  const code = (p: Promise<unknown>) => p.then(() => 'ok', (e: unknown) => (e instanceof DomainError ? e.code : String(e)));

  it('gives each line its last commit, neighbours of one commit as one range', async () => {
    const b = await blame('a.txt');
    expect(b.commit).toBe(c[2]);
    expect(b.lines).toEqual(['a', 'B', 'C', 'd']);
    expect(b.ranges).toEqual([
      { sha: c[1], start: 1, count: 1 },
      { sha: c[2], start: 2, count: 2 },
      { sha: c[1], start: 4, count: 1 },
    ]);
    expect(b.commits.find((x) => x.sha === c[1])).toEqual({
      sha: c[1], summary: 'one', authorName: 'Ann', authorEmail: 'ann@example.com', authorDate: '2024-01-01T00:00:00+02:00',
    });
    expect(b.commits.find((x) => x.sha === c[2])).toMatchObject({ summary: 'two', authorName: 'Bob', authorDate: '2024-01-01T09:06:40Z' });
  });

  it('blames at a tag, and says tooLarge or binary instead of annotating', async () => {
    expect((await blame('a.txt', 'v1')).ranges).toEqual([{ sha: c[1], start: 1, count: 4 }]);
    expect(await blame('big.txt')).toMatchObject({ tooLarge: true, lines: [], ranges: [] });
    expect(await blame('bin.dat')).toMatchObject({ binary: true, lines: [], ranges: [] });
  });

  it('refuses missing files, folders, option-looking or escaping paths and unknown refs as not found', async () => {
    for (const path of ['nope.txt', '', '../a.txt', '--output=/tmp/x', 'a.txt/..']) {
      expect(await code(blame(path)), path).toBe(ErrorCode.NOT_FOUND);
    }
    expect(await code(blame('a.txt', 'no-such-branch'))).toBe(ErrorCode.NOT_FOUND);
  });
});
