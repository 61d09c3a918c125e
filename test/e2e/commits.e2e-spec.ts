/**
 * The commit list end to end (issue 3) on a history pushed with the real `git` at known committer dates: Gitea's
 * `Commit` shape, `since`/`until` (RFC 3339 only — exact 422 messages —, inclusive bounds, committer dates, offsets and
 * fractions), the filtered totals in `X-Total-Count`/`X-Total`/`X-PageCount`/`X-HasMore`/`Link` (Gitea 1.27's
 * corrected counting), `path` (no commits in range → 200 [], no history → 404), `sha`/`not`, and the empty
 * repository (409, after the date validation).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesContract } from '../support/openapi-contract.js';
import { createUser, http, uniqueName, type Account, type HttpClient, type HttpResponse } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { commitAll, gitRunner, httpCloneUrl, workspace, type Git } from '../support/git.js';
import { expectApiError } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
const ws = workspace('cairn-e2e-commits-');
let git: Git;
let owner: Account;
const repo = uniqueName('history');
let base: string;
/** main: k1 … k6 (oldest first); `side` branches off k3 with s1; tag `t3` is k3. */
const k = {} as Record<'k1' | 'k2' | 'k3' | 'k4' | 'k5' | 'k6' | 's1', string>;

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);
function shas(res: HttpResponse): string[] {
  expect(res.status, res.text).toBe(200);
  return (res.body as Array<{ sha: string }>).map((c) => c.sha);
}
const list = (query: string) => api.get(`${base}/commits${query ? `?${query}` : ''}`, { basic: owner });

function expectTotals(res: HttpResponse, total: number, page: number, perPage: number): void {
  const pageCount = Math.ceil(total / perPage);
  expect({
    'x-total-count': res.headers.get('x-total-count'),
    'x-total': res.headers.get('x-total'),
    'x-page': res.headers.get('x-page'),
    'x-perpage': res.headers.get('x-perpage'),
    'x-pagecount': res.headers.get('x-pagecount'),
    'x-hasmore': res.headers.get('x-hasmore'),
  }).toEqual({
    'x-total-count': String(total),
    'x-total': String(total),
    'x-page': String(page),
    'x-perpage': String(perPage),
    'x-pagecount': String(pageCount),
    'x-hasmore': String(page < pageCount),
  });
}

beforeAll(async () => {
  suite = await sharedTestSuite();
  api = http(suite);
  git = gitRunner(ws.dir('home'));
  const admin = await suite.createAdmin();
  owner = await createUser(suite, admin, uniqueName('owner'));
  expect((await api.post('/user/repos', { basic: owner, body: { name: repo } })).status).toBe(201);
  base = `/repos/${owner.username}/${repo}`;

  const dir = ws.dir('work');
  await git.ok(['init', '-q', '-b', 'main', dir]);
  // k1 is authored by the owner (their e-mail): the API links it to the account.
  k.k1 = await commitAll(git, dir, { 'a.txt': 'a1\n', 'docs/x.md': 'x1\n' }, 'k1', at('2024-01-01T00:00:00Z'));
  await git.ok(['commit', '-q', '--amend', '--no-edit', '--author', `Owner <${owner.username}@example.com>`, '--date', '@1704067200 +0000'], {
    cwd: dir,
    env: { GIT_AUTHOR_DATE: '@1704067200 +0000', GIT_COMMITTER_DATE: '@1704067200 +0000' },
  });
  k.k1 = await git.ok(['rev-parse', 'HEAD'], { cwd: dir });
  k.k2 = await commitAll(git, dir, { 'docs/x.md': 'x2\n' }, 'k2', at('2024-01-15T00:00:00Z'));
  k.k3 = await commitAll(git, dir, { 'b.txt': 'b\n' }, 'k3', at('2024-02-01T00:00:00Z'));
  await git.ok(['tag', 't3'], { cwd: dir });
  await git.ok(['branch', 'side'], { cwd: dir });
  k.k4 = await commitAll(git, dir, { 'a.txt': 'a2\n' }, 'k4', at('2024-02-01T00:00:01Z'));
  // k5: authored long ago, committed on 2024-03-01 12:00 — the filters look at the committer date.
  await commitAll(git, dir, { 'c.txt': 'c\n' }, 'k5', at('2024-03-01T12:00:00Z'));
  await git.ok(['commit', '-q', '--amend', '--no-edit', '--date', '@1577836800 +0000'], {
    cwd: dir,
    env: { GIT_AUTHOR_DATE: '@1577836800 +0000', GIT_COMMITTER_DATE: `@${at('2024-03-01T12:00:00Z')} +0000` },
  });
  k.k5 = await git.ok(['rev-parse', 'HEAD'], { cwd: dir });
  k.k6 = await commitAll(git, dir, { 'docs/x.md': 'x3\n' }, 'k6', at('2024-04-01T00:00:00Z'));
  await git.ok(['checkout', '-q', 'side'], { cwd: dir });
  k.s1 = await commitAll(git, dir, { 'side.txt': 's\n' }, 's1', at('2024-02-10T00:00:00Z'));
  await git.ok(['checkout', '-q', 'main'], { cwd: dir });
  const url = httpCloneUrl(suite.baseUrl, owner.username, repo, { username: owner.username, secret: owner.password });
  await git.ok(['push', '-q', url, 'main', 'side', 't3'], { cwd: dir });
});

afterAll(async () => {
  ws.cleanup();
  await suite?.stop();
});

describe('GET /repos/{owner}/{repo}/commits', () => {
  it('lists the default branch newest first, as Gitea’s Commit, with the paging headers', async () => {
    const res = await list('');
    expect(res.status, res.text).toBe(200);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/commits', 200, res.body);
    expect(shas(res)).toEqual([k.k6, k.k5, k.k4, k.k3, k.k2, k.k1]);
    expectTotals(res, 6, 1, 30);
    expect(res.headers.get('link')).toBeNull();
    const first = res.body[5];
    expect(first).toMatchObject({
      sha: k.k1,
      html_url: `${suite.rootUrl}${owner.username}/${repo}/commit/${k.k1}`,
      url: `${suite.rootUrl}api/v1${base}/git/commits/${k.k1}`,
      parents: [],
      commit: {
        message: 'k1\n',
        author: { name: 'Owner', email: `${owner.username}@example.com`, date: '2024-01-01T00:00:00Z' },
        committer: { date: '2024-01-01T00:00:00Z' },
      },
      author: { login: owner.username },
      committer: null,
      stats: { total: 2, additions: 2, deletions: 0 },
    });
    expect([...first.files].sort((a: { filename: string }, b: { filename: string }) => a.filename.localeCompare(b.filename))).toEqual([
      { filename: 'a.txt', status: 'added' },
      { filename: 'docs/x.md', status: 'added' },
    ]);
    // k5's author date is 2020, its committer date 2024-03-01.
    expect(res.body[1].commit.author.date).toBe('2020-01-01T00:00:00Z');
    expect(res.body[1].commit.committer.date).toBe('2024-03-01T12:00:00Z');
  });

  it('filters by since/until on the committer date, both bounds inclusive', async () => {
    const range = await list('since=2024-01-15T00:00:00Z&until=2024-03-01T12:00:00Z');
    expect(shas(range)).toEqual([k.k5, k.k4, k.k3, k.k2]);
    expectTotals(range, 4, 1, 30);
    expect(shas(await list('since=2024-02-01T00:00:00Z&until=2024-02-01T00:00:00Z'))).toEqual([k.k3]);
    expect(shas(await list('since=2024-03-01T00:00:00Z'))).toEqual([k.k6, k.k5]);
    expect(shas(await list('until=2024-01-15T00:00:00Z'))).toEqual([k.k2, k.k1]);
    // The committer date counts, not the author date (k5 was authored in 2020).
    const old = await list('until=2021-01-01T00:00:00Z');
    expect(old.status).toBe(200);
    expect(old.body).toEqual([]);
    expectTotals(old, 0, 1, 30);
  });

  it('understands offsets and fractional seconds', async () => {
    expect(shas(await list(`since=${encodeURIComponent('2024-03-01T14:00:00+02:00')}`))).toEqual([k.k6, k.k5]);
    expect(shas(await list(`until=${encodeURIComponent('2024-03-01T13:59:59+02:00')}`))).toEqual([k.k4, k.k3, k.k2, k.k1]);
    expect(shas(await list('since=2024-02-01T00:00:00.5Z'))).toEqual([k.k6, k.k5, k.k4]);
    expect(shas(await list('until=2024-02-01T00:00:00.5Z'))).toEqual([k.k3, k.k2, k.k1]);
    expect(shas(await list('since=2024-02-01T00:00:00.000Z&until=2024-02-01T00:00:01.999Z'))).toEqual([k.k4, k.k3]);
    // Go's RFC 3339 parser (Gitea's) wants the upper-case T and Z.
    expectApiError(await list('until=2024-02-01t00:00:01z'), 422, "invalid 'until' format, expected ISO 8601 (RFC3339)");
  });

  it('counts only the filtered commits in every paging header, and keeps the filters in Link', async () => {
    const p1 = await list('since=2024-01-15T00:00:00Z&limit=2');
    expect(shas(p1)).toEqual([k.k6, k.k5]);
    expectTotals(p1, 5, 1, 2);
    const link = p1.headers.get('link') ?? '';
    expect(link).toContain('rel="next"');
    expect(link).toContain('rel="last"');
    const next = /<([^>]+)>; rel="next"/.exec(link)![1];
    expect(new URL(next).searchParams.get('since')).toBe('2024-01-15T00:00:00Z');
    expect(new URL(next).searchParams.get('page')).toBe('2');
    const last = /<([^>]+)>; rel="last"/.exec(link)![1];
    expect(new URL(last).searchParams.get('page')).toBe('3');

    const p2 = await api.get(next.replace(suite.rootUrl.replace(/\/$/, ''), suite.baseUrl), { basic: owner });
    expect(shas(p2)).toEqual([k.k4, k.k3]);
    const p3 = await list('since=2024-01-15T00:00:00Z&limit=2&page=3');
    expect(shas(p3)).toEqual([k.k2]);
    expectTotals(p3, 5, 3, 2);
    expect(p3.headers.get('link')).toContain('rel="prev"');
    expect(p3.headers.get('link')).not.toContain('rel="next"');
    // Past the end: an empty page, same totals.
    const p9 = await list('since=2024-01-15T00:00:00Z&limit=2&page=9');
    expect(p9.body).toEqual([]);
    expect(p9.headers.get('x-total')).toBe('5');
  });

  it('with a path: its history, 200 [] when nothing is in range, 404 when it has no history at all', async () => {
    expect(shas(await list('path=docs/x.md'))).toEqual([k.k6, k.k2, k.k1]);
    expect(shas(await list('path=docs'))).toEqual([k.k6, k.k2, k.k1]);
    const ranged = await list('path=docs/x.md&since=2024-01-10T00:00:00Z&until=2024-03-31T00:00:00Z');
    expect(shas(ranged)).toEqual([k.k2]);
    expect(ranged.headers.get('x-total')).toBe('1');
    // Gitea 1.27's TestGetFileHistoryEmptyDateRange.
    const none = await list('path=docs/x.md&until=1970-01-01T00:00:00Z');
    expect(none.status, none.text).toBe(200);
    expect(none.body).toEqual([]);
    expect(none.headers.get('x-total')).toBe('0');
    expect(none.headers.get('x-total-count')).toBe('0');
    expectApiError(await list('path=does-not-exist.md'), 404);
    expectApiError(await list('path=does-not-exist.md&since=2024-01-01T00:00:00Z'), 404);
    expectApiError(await list('path=side.txt'), 404); // only on another branch
    for (const bad of ['../a.txt', '/a.txt', '.git/config', 'docs/../a.txt']) {
      expectApiError(await list(`path=${encodeURIComponent(bad)}`), 404);
    }
  });

  it('starts at sha (branch, tag, commit) and excludes not', async () => {
    expect(shas(await list('sha=side'))).toEqual([k.s1, k.k3, k.k2, k.k1]);
    expect(shas(await list('sha=t3'))).toEqual([k.k3, k.k2, k.k1]);
    expect(shas(await list(`sha=${k.k4}`))).toEqual([k.k4, k.k3, k.k2, k.k1]);
    const sideOnly = await list('sha=side&not=main');
    expect(shas(sideOnly)).toEqual([k.s1]);
    expect(sideOnly.headers.get('x-total')).toBe('1');
    expect(shas(await list('sha=side&since=2024-02-01T00:00:00Z'))).toEqual([k.s1, k.k3]);
    expectApiError(await list('sha=nope'), 404);
    expectApiError(await list('not=nope'), 404);
    expectApiError(await list(`sha=${'1'.repeat(40)}`), 404);
  });

  it('leaves out stats, files and verification when asked to', async () => {
    const res = await list('stat=false&files=false&verification=false&limit=1');
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ sha: k.k6, stats: null, files: null, commit: { verification: null } });
    const full = await list('limit=1');
    expect(full.body[0].files).toEqual([{ filename: 'docs/x.md', status: 'modified' }]);
    expect(full.body[0].stats).toEqual({ total: 2, additions: 1, deletions: 1 });
  });

  it('reads page=0 and limit=0 as the defaults (what Gitea’s Go SDK sends), as Gitea', async () => {
    const res = await list('page=0&limit=0&sha=main&stat=false&verification=false&files=false');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-page')).toBe('1');
    expect(res.headers.get('x-perpage')).toBe('30');
    expect(res.body[0]).toMatchObject({ sha: k.k6 });
  });

  it('caps the page size at 50', async () => {
    const res = await list('limit=500');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-perpage')).toBe('50');
  });

  const badDates = [
    '2024-01-02', '1704067200', 'yesterday', '2024-01-02T15:04:05', '2024-13-01T00:00:00Z', '2024-02-30T00:00:00Z',
    '2024-01-02 15:04:05Z', '2024-01-02T25:00:00Z', 'now', '-1', ' 2024-01-02T15:04:05Z',
  ];
  it.each(['since', 'until'])('refuses %s values that are not RFC 3339 with Gitea’s exact 422 message', async (name) => {
    for (const value of badDates) {
      const res = await list(`${name}=${encodeURIComponent(value)}`);
      expect(res.status, `${name}=${value}: ${res.text}`).toBe(422);
      expect(res.body.message, value).toBe(`invalid '${name}' format, expected ISO 8601 (RFC3339)`);
    }
  });

  it('on an empty repository: the dates are validated first (422), then 409 "Git Repository is empty."', async () => {
    const empty = uniqueName('empty');
    expect((await api.post('/user/repos', { basic: owner, body: { name: empty } })).status).toBe(201);
    const path = `/repos/${owner.username}/${empty}/commits`;
    expectApiError(await api.get(`${path}?since=bad`, { basic: owner }), 422, "invalid 'since' format, expected ISO 8601 (RFC3339)");
    expectApiError(await api.get(`${path}?until=bad`, { basic: owner }), 422, "invalid 'until' format, expected ISO 8601 (RFC3339)");
    expectApiError(await api.get(path, { basic: owner }), 409, 'Git Repository is empty.');
    expectApiError(await api.get(`${path}?since=2024-01-01T00:00:00Z`, { basic: owner }), 409, 'Git Repository is empty.');
  });

  it('is readable anonymously on a public repository and hidden (404) on a private one', async () => {
    expect((await api.get(`${base}/commits?limit=1`)).status).toBe(200);
    expect((await api.patch(base, { basic: owner, body: { private: true } })).status).toBe(200);
    expectApiError(await api.get(`${base}/commits?limit=1`), 404);
    expectApiError(await api.get(`${base}/commits?since=bad`), 404);
    expect((await api.patch(base, { basic: owner, body: { private: false } })).status).toBe(200);
  });
});
