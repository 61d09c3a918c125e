import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError, ErrorCode, type GetCommitDiffRequest, type ListRefNamesRequest, type RepoRefDto } from '@cairn/contracts';
import { CatFilePool } from '@cairn/git';
import { GitReadContext } from '../../git-core/git/git-read-context.js';
import { GitFixture, removeDir, tempDir } from '../../../../../test/support/git-fixture.js';
import { RefNamesService } from '../../git-core/ref-names/ref-names.service.js';
import { CommitDiffService } from './commit-diff.service.js';

const repo: RepoRefDto = { id: 1, ownerId: 2, ownerName: 'bob', name: 'diffs', defaultBranch: 'main' };
const emptyRepo: RepoRefDto = { id: 2, ownerId: 2, ownerName: 'bob', name: 'void', defaultBranch: 'main', empty: true };

describe('commit diffs and ref names for the web UI (integration, real git)', () => {
  let root: string;
  let pool: CatFilePool;
  let diffs: CommitDiffService;
  let refs: RefNamesService;
  const c: string[] = [];

  beforeAll(() => {
    root = tempDir('cairn-it-diff-');
    const fx = new GitFixture(root, 'bob', 'diffs');
    c[1] = fx.commit({ message: 'one', date: 1_700_000_000, files: { 'a.txt': 'a\nb\n', 'old.md': 'same content here\n'.repeat(5) } });
    fx.git('rm', '-q', 'old.md');
    c[2] = fx.commit({ message: 'two', date: 1_700_000_060, files: { 'a.txt': 'a\nB\nc\n', 'docs/new.md': 'same content here\n'.repeat(5) } });
    c[3] = fx.commit({ message: 'big', date: 1_700_000_120, files: { 'big.txt': 'line of text\n'.repeat(20_000) } });
    fx.git('branch', 'feature/x', c[1]);
    fx.git('tag', 'v1', c[1]);
    fx.git('tag', 'v2', c[2]);
    fx.publish();
    new GitFixture(root, 'bob', 'void');
    pool = new CatFilePool({ maxProcesses: 2, idleTimeoutMs: 60_000 });
    const ctx = new GitReadContext(pool, root, 'http://cairn.test/', 50);
    diffs = new CommitDiffService(ctx);
    refs = new RefNamesService(ctx);
  });

  afterAll(() => {
    pool?.close();
    if (root) removeDir(root);
  });

  const diff = (sha: string, maxBytes = 64 * 1024, r = repo) =>
    diffs.diff({ actor: null, repo: r, access: 'read', sha, maxBytes } as GetCommitDiffRequest);

  it('gives a root commit against the empty tree', async () => {
    const d = await diff(c[1]);
    expect(d).toMatchObject({ sha: c[1], from: null, tooLarge: false });
    expect(d.patch).toContain('new file mode 100644');
    expect(d.patch).toContain('+++ b/a.txt');
  });

  it('gives changes against the parent, renames detected, by ref name too', async () => {
    const d = await diff('v2');
    expect(d.sha).toBe(c[2]);
    expect(d.from).toBe(c[1]);
    expect(d.patch).toContain('-b\n+B\n+c\n');
    expect(d.patch).toContain('rename from old.md\nrename to docs/new.md');
  });

  it('says tooLarge, without a cut patch, past the byte cap', async () => {
    expect(await diff(c[3], 4096)).toEqual({ sha: c[3], from: c[2], patch: '', tooLarge: true });
    expect((await diff(c[3], 512 * 1024)).tooLarge).toBe(false);
  });

  it('gives the changes since the merge base with a base (base...head), and refuses unknown or unrelated bases', async () => {
    const d = await diffs.diff({ actor: null, repo, access: 'read', sha: 'v2', base: 'feature/x', maxBytes: 64 * 1024 } as GetCommitDiffRequest);
    expect(d).toMatchObject({ sha: c[2], from: c[1], tooLarge: false });
    expect(d.patch).toContain('rename to docs/new.md');
    expect(d.patch).not.toContain('big.txt');
    const code = (p: Promise<unknown>) => p.then(() => 'ok', (e: unknown) => (e instanceof DomainError ? e.code : String(e)));
    expect(await code(diffs.diff({ actor: null, repo, access: 'read', sha: 'main', base: 'nope', maxBytes: 1024 } as GetCommitDiffRequest))).toBe(ErrorCode.NOT_FOUND);
  });

  it('refuses unknown commits and options-looking refs', async () => {
    const code = (p: Promise<unknown>) => p.then(() => 'ok', (e: unknown) => (e instanceof DomainError ? e.code : String(e)));
    expect(await code(diff('0'.repeat(40)))).toBe(ErrorCode.NOT_FOUND);
    expect(await code(diff('--output=/tmp/x'))).toBe(ErrorCode.UNPROCESSABLE);
    expect(await code(diff('main', 1024, emptyRepo))).toBe(ErrorCode.NOT_FOUND);
  });

  it('lists branch and tag names sorted, cut at the limit', async () => {
    const names = (limit: number, r = repo) => refs.list({ actor: null, repo: r, access: 'read', limit } as ListRefNamesRequest);
    expect(await names(10)).toEqual({ branches: ['feature/x', 'main'], tags: ['v1', 'v2'], truncated: false });
    expect(await names(1)).toEqual({ branches: ['feature/x'], tags: ['v1'], truncated: true });
    expect(await names(10, emptyRepo)).toEqual({ branches: [], tags: [], truncated: false });
  });
});
