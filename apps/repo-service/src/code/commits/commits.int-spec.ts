import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DomainError, ErrorCode,
  type CommitListFilter, type CommitOptions, type ListCommitsRequest, type RepoRefDto, type UserDto,
} from '@cairn/contracts';
import { CatFilePool, gitSpawnStats, historyCountCache } from '@cairn/git';
import { GitReadContext } from '../../git-core/git/git-read-context.js';
import { GitFixture, removeDir, tempDir } from '../../../../../test/support/git-fixture.js';
import { testCommitVerifier } from '../../git-core/signatures/testing/test-verifier.js';
import { CommitUserDirectory } from './commit-users.js';
import { CommitsService } from './commits.service.js';

const ROOT_URL = 'http://cairn.test:3000/';
const API = `${ROOT_URL}api/v1/repos/bob/history`;
const repo: RepoRefDto = { id: 1, ownerId: 2, ownerName: 'bob', name: 'history', defaultBranch: 'main' };
const emptyRepo: RepoRefDto = { id: 2, ownerId: 2, ownerName: 'bob', name: 'void', defaultBranch: 'main', empty: true };
const ALL: CommitOptions = { stat: true, verification: true, files: true };
const NONE: CommitOptions = { stat: false, verification: false, files: false };

const ann = { id: 7, login: 'ann', email: 'ann@example.com' } as UserDto;

/** An in-memory user directory: the e-mail → user mapping identity-service would answer. */
class FixedUsers extends CommitUserDirectory {
  calls = 0;
  async byEmails(emails: string[]): Promise<Map<string, UserDto>> {
    this.calls += 1;
    return new Map(emails.filter((e) => e.toLowerCase() === ann.email).map((e) => [e.toLowerCase(), ann]));
  }
}

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected a failure');
}

const day = (n: number) => Date.UTC(2024, 0, n) / 1000;

describe('commit list with since/until and single commits (integration)', () => {
  let root: string;
  let fx: GitFixture;
  let pool: CatFilePool;
  let users: FixedUsers;
  let svc: CommitsService;
  /** c[1]..c[6] in commit order; c[n] has committer date day(n). */
  const c: string[] = [];

  beforeAll(() => {
    root = tempDir('cairn-it-commits-');
    fx = new GitFixture(root, 'bob', 'history');
    const annAuthor = { name: 'Ann', email: 'Ann@Example.com' };
    c[1] = fx.commit({ message: 'one', date: day(1), files: { 'src/a.txt': 'a1\n', 'docs/b.md': 'b1\n' }, author: annAuthor });
    c[2] = fx.commit({ message: 'two', date: day(2), files: { 'src/a.txt': 'a1\na2\n' } });
    c[3] = fx.commit({ message: 'three', date: day(3), files: { 'docs/b.md': 'b2\n', 'bin.dat': Buffer.from([0, 1, 2]) } });
    fx.git('checkout', '-q', '-b', 'side');
    c[4] = fx.commit({ message: 'four (side)', date: day(4), files: { 'side.txt': 'x\n' } });
    fx.git('checkout', '-q', 'main');
    // A merge at day 5, written with a +02:00 offset.
    fx.gitEnv(
      { GIT_COMMITTER_DATE: '2024-01-05T02:00:00+02:00', GIT_AUTHOR_DATE: '2024-01-05T02:00:00+02:00' },
      'merge',
      '-q',
      '--no-ff',
      '-m',
      'five (merge)',
      'side',
    );
    c[5] = fx.git('rev-parse', 'HEAD');
    c[6] = fx.commit({ message: 'six\n\nbody', date: day(6), files: { 'src/a.txt': null, 'src/c.txt': 'c\n' } });
    fx.git('tag', 'v1', c[3]);
    fx.publish();
    new GitFixture(root, 'bob', 'void');
    pool = new CatFilePool({ maxProcesses: 4, idleTimeoutMs: 60_000 });
    users = new FixedUsers();
    svc = new CommitsService(new GitReadContext(pool, root, ROOT_URL, 50), users, testCommitVerifier({ pool, repoRoot: root }).verifier);
  });

  afterAll(() => {
    pool?.close();
    if (root) removeDir(root);
  });

  const list = (filter: CommitListFilter = {}, options: CommitOptions = NONE, r: RepoRefDto = repo) =>
    svc.list({ actor: null, repo: r, access: 'read', filter, options } as ListCommitsRequest);
  const shas = async (filter: CommitListFilter) => (await list(filter)).items.map((i) => i.sha);

  it('lists the default branch newest first with the total', async () => {
    const page = await list();
    expect(page.items.map((i) => i.sha)).toEqual([c[6], c[5], c[4], c[3], c[2], c[1]]);
    expect(page).toMatchObject({ total: 6, page: 1, pageSize: 30 });
  });

  it('renders Gitea commit JSON with users matched by e-mail, files and stats', async () => {
    const page = await list({ sha: c[1] }, ALL);
    const one = page.items[0];
    expect(one).toEqual({
      url: `${API}/git/commits/${c[1]}`,
      sha: c[1],
      created: '2024-01-01T00:00:00Z',
      html_url: `${ROOT_URL}bob/history/commit/${c[1]}`,
      commit: {
        url: `${API}/git/commits/${c[1]}`,
        author: { name: 'Ann', email: 'Ann@Example.com', date: '2024-01-01T00:00:00Z' },
        committer: { name: 'Ann', email: 'Ann@Example.com', date: '2024-01-01T00:00:00Z' },
        message: 'one\n',
        tree: { url: `${API}/git/trees/${c[1]}`, sha: c[1], created: '2024-01-01T00:00:00Z' },
        verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '', trust_status: '' },
      },
      author: ann,
      committer: ann,
      parents: [],
      files: [
        { filename: 'docs/b.md', status: 'added' },
        { filename: 'src/a.txt', status: 'added' },
      ],
      stats: { total: 2, additions: 2, deletions: 0 },
    });
    const six = (await list({ sha: c[6], limit: 1 }, ALL)).items[0];
    expect(six.author).toBeNull();
    expect(six.parents).toEqual([{ url: `${API}/git/commits/${c[5]}`, sha: c[5], created: '0001-01-01T00:00:00Z' }]);
    expect(six.files).toEqual([
      { filename: 'src/a.txt', status: 'removed' },
      { filename: 'src/c.txt', status: 'added' },
    ]);
    expect(six.stats).toEqual({ total: 3, additions: 1, deletions: 2 });
    const merge = (await list({ sha: c[5], limit: 1 }, ALL)).items[0];
    expect(merge.commit.committer.date).toBe('2024-01-05T02:00:00+02:00');
    expect(merge.files).toEqual([{ filename: 'side.txt', status: 'added' }]); // against the first parent
    const bare = (await list({ sha: c[3], limit: 1 }, NONE)).items[0];
    expect(bare).toMatchObject({ files: null, stats: null, commit: { verification: null } });
  });

  it('looks users up once per page', async () => {
    const before = users.calls;
    await list({}, ALL);
    expect(users.calls - before).toBe(1);
  });

  it('walks the history once per page, never a process per commit', async () => {
    await list({}, ALL); // warm the repository's cat-file process
    const spawned = () => ({ log: gitSpawnStats.count('log'), revList: gitSpawnStats.count('rev-list'), total: gitSpawnStats.total });
    const delta = (before: ReturnType<typeof spawned>) => {
      const now = spawned();
      return { log: now.log - before.log, revList: now.revList - before.revList, total: now.total - before.total };
    };
    historyCountCache.clear();
    // Total not known yet: one rev-list walk (total + ids), one `git log --no-walk` for files and stats.
    let before = spawned();
    await list({ since: '2024-01-01T00:00:00Z' }, ALL);
    expect(delta(before)).toEqual({ log: 1, revList: 1, total: 2 });
    // Same filter again (cached total): one git log walk to the end of the page, nothing else.
    before = spawned();
    await list({ since: '2024-01-01T00:00:00Z', page: 2, limit: 2 }, ALL);
    expect(delta(before)).toEqual({ log: 1, revList: 0, total: 1 });
    // Without files and stats, a new filter is the walk alone; the commits come from cat-file.
    before = spawned();
    await list({ since: '2024-01-02T00:00:00Z' }, NONE);
    expect(delta(before)).toEqual({ log: 0, revList: 1, total: 1 });
  });

  it('answers the same page and total whether or not the total was cached', async () => {
    const filters: CommitListFilter[] = [
      {},
      { since: '2024-01-02T00:00:00Z', limit: 2, page: 2 },
      { path: 'src/a.txt' },
      { path: 'docs', until: '2024-01-04T00:00:00Z' },
      { sha: 'side', not: c[2] },
      { until: '2024-01-05T00:00:00Z', limit: 1, page: 3 },
      { since: '2024-01-02T00:00:00Z', limit: 2, page: 4 }, // past the end: an empty page, not HEAD
    ];
    for (const filter of filters) {
      for (const options of [ALL, NONE]) {
        historyCountCache.clear();
        const cold = await list(filter, options);
        const warm = await list(filter, options);
        expect(warm, JSON.stringify(filter)).toEqual(cold);
        if (filter.page === 4) expect(cold).toMatchObject({ items: [], total: 5 });
      }
    }
    // And the same commits as the unfiltered list renders them.
    const all = await list({}, ALL);
    const windowed = await list({ since: '2024-01-02T00:00:00Z', until: '2024-01-03T00:00:00Z' }, ALL);
    expect(windowed.items).toEqual(all.items.filter((i) => i.sha === c[2] || i.sha === c[3]));
  });

  describe('since / until', () => {
    it('includes commits exactly at either bound', async () => {
      expect(await shas({ since: '2024-01-02T00:00:00Z' })).toEqual([c[6], c[5], c[4], c[3], c[2]]);
      expect(await shas({ until: '2024-01-04T00:00:00Z' })).toEqual([c[4], c[3], c[2], c[1]]);
      const both = await list({ since: '2024-01-02T00:00:00Z', until: '2024-01-04T00:00:00Z' });
      expect(both.items.map((i) => i.sha)).toEqual([c[4], c[3], c[2]]);
      expect(both.total).toBe(3);
    });

    it('honours fractional seconds and offsets', async () => {
      expect(await shas({ since: '2024-01-02T00:00:00.001Z' })).toEqual([c[6], c[5], c[4], c[3]]);
      expect(await shas({ until: '2024-01-02T23:59:59.999Z' })).toEqual([c[2], c[1]]);
      expect(await shas({ until: '2024-01-03T00:00:00.999Z' })).toEqual([c[3], c[2], c[1]]);
      // 2024-01-02T02:00:00+02:00 is day 2 exactly; the merge at 02:00+02:00 on the 5th is day 5 exactly.
      expect(await shas({ since: '2024-01-02T02:00:00+02:00', until: '2024-01-02T02:00:00+02:00' })).toEqual([c[2]]);
      expect(await shas({ since: '2024-01-05T02:00:00+02:00', until: '2024-01-05T00:00:00Z' })).toEqual([c[5]]);
      expect(await shas({ since: '2024-01-04T20:00:00-04:00' })).toEqual([c[6], c[5]]);
    });

    it('counts only the filtered commits, across pages', async () => {
      const p1 = await list({ since: '2024-01-02T00:00:00Z', limit: 2 });
      expect(p1).toMatchObject({ total: 5, page: 1, pageSize: 2 });
      expect(p1.items.map((i) => i.sha)).toEqual([c[6], c[5]]);
      const p3 = await list({ since: '2024-01-02T00:00:00Z', limit: 2, page: 3 });
      expect(p3.items.map((i) => i.sha)).toEqual([c[2]]);
      const p4 = await list({ since: '2024-01-02T00:00:00Z', limit: 2, page: 4 });
      expect(p4).toMatchObject({ items: [], total: 5 });
    });

    it('combines with path, sha and not', async () => {
      const byPath = await list({ path: 'src/a.txt', since: '2024-01-02T00:00:00Z' });
      expect(byPath.items.map((i) => i.sha)).toEqual([c[6], c[2]]);
      expect(byPath).toMatchObject({ total: 2, pageSize: 50 });
      expect(await shas({ path: 'docs', until: '2024-01-02T00:00:00Z' })).toEqual([c[1]]);
      expect(await shas({ sha: 'v1', since: '2024-01-02T00:00:00Z' })).toEqual([c[3], c[2]]);
      expect(await shas({ not: 'side', since: '2024-01-02T00:00:00Z' })).toEqual([c[6], c[5]]);
      expect((await list({ not: 'side' })).total).toBe(2);
      expect(await shas({ sha: 'side', not: c[2] })).toEqual([c[4], c[3]]);
    });

    it('answers an empty page for a path with history but none in range, and 404 for a path without history', async () => {
      const none = await list({ path: 'src/a.txt', until: '1970-01-01T00:00:00Z' });
      expect(none).toMatchObject({ items: [], total: 0 });
      const before = await list({ path: 'src/a.txt', until: '1969-12-31T00:00:00Z' });
      expect(before).toMatchObject({ items: [], total: 0 });
      const inverted = await list({ path: 'docs/b.md', since: '2024-01-03T00:00:00Z', until: '2024-01-02T00:00:00Z' });
      expect(inverted).toMatchObject({ items: [], total: 0 });
      expect((await failure(list({ path: 'does-not-exist.md' }))).code).toBe(ErrorCode.NOT_FOUND);
      expect((await failure(list({ path: 'does-not-exist.md', until: '1970-01-01T00:00:00Z' }))).code).toBe(
        ErrorCode.NOT_FOUND,
      );
      expect((await failure(list({ path: '../outside' }))).code).toBe(ErrorCode.NOT_FOUND);
    });

    it("rejects anything but RFC 3339 with Gitea's 422 message, before the empty-repository check", async () => {
      for (const bad of ['2024-01-02', '1700000000', 'yesterday', '2024-13-01T00:00:00Z']) {
        expect(await failure(list({ since: bad }))).toEqual({
          code: ErrorCode.UNPROCESSABLE,
          message: "invalid 'since' format, expected ISO 8601 (RFC3339)",
        });
        expect(await failure(list({ until: bad }))).toEqual({
          code: ErrorCode.UNPROCESSABLE,
          message: "invalid 'until' format, expected ISO 8601 (RFC3339)",
        });
      }
      expect(await failure(list({ since: 'yesterday' }, NONE, emptyRepo))).toMatchObject({
        code: ErrorCode.UNPROCESSABLE,
      });
      expect(await failure(list({}, NONE, emptyRepo))).toEqual({
        code: ErrorCode.CONFLICT,
        message: 'Git Repository is empty.',
      });
    });

    it('detects an empty repository from git too (no branch at all)', async () => {
      expect(await failure(list({}, NONE, { ...emptyRepo, empty: false }))).toEqual({
        code: ErrorCode.CONFLICT,
        message: 'Git Repository is empty.',
      });
    });
  });

  it('caps the page size at 50 and answers unknown refs with 404', async () => {
    expect((await list({ limit: 500 })).pageSize).toBe(50);
    expect((await failure(list({ sha: 'no-such-branch' }))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await failure(list({ sha: '--all' }))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await failure(list({ not: 'nope' }))).code).toBe(ErrorCode.NOT_FOUND);
  });

  describe('single commit', () => {
    const get = (sha: string, options = ALL, r = repo) => svc.get({ actor: null, repo: r, access: 'read', sha, options } as never);

    it('answers the same shape as the list, by id, short id, branch or tag', async () => {
      const listed = (await list({ sha: c[3], limit: 1 }, ALL)).items[0];
      expect(await get(c[3])).toEqual(listed);
      expect((await get(c[3].slice(0, 8))).sha).toBe(c[3]);
      expect((await get('v1')).sha).toBe(c[3]);
      expect((await get('side')).sha).toBe(c[4]);
    });

    it('reads a commit without files or stats from cat-file alone', async () => {
      await get(c[6], NONE); // warm the repository's cat-file process
      const before = gitSpawnStats.total;
      const one = await get(c[6], NONE);
      expect(gitSpawnStats.total).toBe(before);
      expect(one).toMatchObject({ sha: c[6], files: null, stats: null, commit: { message: 'six\n\nbody\n' } });
    });

    it('answers 422 for a malformed sha and 404 for an unknown one', async () => {
      expect(await failure(get('a..b'))).toEqual({ code: ErrorCode.UNPROCESSABLE, message: 'no valid ref or sha: a..b' });
      expect(await failure(get('-p'))).toMatchObject({ code: ErrorCode.UNPROCESSABLE });
      expect((await failure(get('0'.repeat(40)))).code).toBe(ErrorCode.NOT_FOUND);
      expect((await failure(get('main', ALL, emptyRepo))).code).toBe(ErrorCode.NOT_FOUND);
    });
  });
});
