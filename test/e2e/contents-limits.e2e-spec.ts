/**
 * The `[api]` limits of the contents APIs end to end (issue 3), on a suite started with small values:
 * `DEFAULT_PAGING_NUM` (entries per batch answer, nulls included), `DEFAULT_MAX_BLOB_SIZE` (larger files come
 * without content, in the batch and the single-file route) and `DEFAULT_MAX_RESPONSE_SIZE` (the batch stops before
 * the file that would take the base64 total past it) — Gitea's `TestAPIGetRequestedFiles` "ResponseList" cases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { REPO_SUITE_APPS, commitAll, gitRunner, httpCloneUrl, workspace } from '../support/git.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

const PAGING_NUM = 3;
const MAX_BLOB_SIZE = 200;
/** Room for two 60-byte files (80 base64 characters each), not three. */
const MAX_RESPONSE_SIZE = 200;

let suite: TestSuite;
let api: HttpClient;
const ws = workspace('cairn-e2e-limits-');
let owner: Account;
let base: string;

const bytes = (n: number, c: string) => c.repeat(n);
const FILES = {
  's1.txt': bytes(60, '1'),
  's2.txt': bytes(60, '2'),
  's3.txt': bytes(60, '3'),
  'tiny.txt': bytes(10, 't'),
  /** Over the blob limit. */
  'big.txt': bytes(300, 'b'),
  /** Under the blob limit but over the response limit on its own (180 bytes → 240 base64 characters). */
  'medium.txt': bytes(180, 'm'),
};

beforeAll(async () => {
  suite = await startTestSuite({
    apps: REPO_SUITE_APPS,
    env: {
      ...FAST_PASSWORD_HASH,
      CAIRN__API__DEFAULT_PAGING_NUM: String(PAGING_NUM),
      CAIRN__API__DEFAULT_MAX_BLOB_SIZE: String(MAX_BLOB_SIZE),
      CAIRN__API__DEFAULT_MAX_RESPONSE_SIZE: String(MAX_RESPONSE_SIZE),
    },
  });
  api = http(suite);
  const admin = await suite.createAdmin();
  owner = await createUser(suite, admin, uniqueName('owner'));
  const repo = uniqueName('limits');
  expect((await api.post('/user/repos', { basic: owner, body: { name: repo } })).status).toBe(201);
  base = `/repos/${owner.username}/${repo}`;
  const git = gitRunner(ws.dir('home'));
  const dir = ws.dir('work');
  await git.ok(['init', '-q', '-b', 'main', dir]);
  await commitAll(git, dir, FILES, 'files');
  await git.ok(['push', '-q', httpCloneUrl(suite.baseUrl, owner.username, repo, { username: owner.username, secret: owner.password }), 'main'], { cwd: dir });
});

afterAll(async () => {
  ws.cleanup();
  await suite?.stop();
});

/** The batch answer for `files`, through POST and through the GET twin (which must agree). */
async function batch(files: string[]): Promise<Array<{ path: string; content: string | null; encoding: string | null; size: number } | null>> {
  const post = await api.post(`${base}/file-contents`, { basic: owner, body: { files } });
  expect(post.status, post.text).toBe(200);
  const get = await api.get(`${base}/file-contents?body=${encodeURIComponent(JSON.stringify({ files }))}`, { basic: owner });
  expect(get.status, get.text).toBe(200);
  expect(get.body).toEqual(post.body);
  return post.body;
}

const summary = (items: Awaited<ReturnType<typeof batch>>) =>
  items.map((e) => e && `${e.path}:${e.content === null ? 'no-content' : Buffer.from(e.content, 'base64').toString().length}`);

describe('limits of the batch file contents', () => {
  it('reports the configured limits in GET /settings/api', async () => {
    const res = await api.get('/settings/api');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      default_paging_num: PAGING_NUM,
      default_max_blob_size: MAX_BLOB_SIZE,
      default_max_response_size: MAX_RESPONSE_SIZE,
    });
  });

  it(`stops after DEFAULT_PAGING_NUM (${PAGING_NUM}) entries, nulls included`, async () => {
    expect(summary(await batch(['no-such.txt', 'tiny.txt', 'big.txt', 'tiny.txt', 's1.txt']))).toEqual([
      null, 'tiny.txt:10', 'big.txt:no-content',
    ]);
  });

  it(`leaves out the content of files over DEFAULT_MAX_BLOB_SIZE (${MAX_BLOB_SIZE} bytes), size still set`, async () => {
    const items = await batch(['big.txt', 'tiny.txt']);
    expect(items[0]).toMatchObject({ path: 'big.txt', size: 300, content: null, encoding: null, type: 'file' });
    expect(items[1]).toMatchObject({ path: 'tiny.txt', size: 10, encoding: 'base64' });
  });

  it(`stops before the file that would take the base64 total past DEFAULT_MAX_RESPONSE_SIZE (${MAX_RESPONSE_SIZE})`, async () => {
    expect(summary(await batch(['s1.txt', 's2.txt', 's3.txt']))).toEqual(['s1.txt:60', 's2.txt:60']);
    // Files without content count nothing.
    expect(summary(await batch(['s1.txt', 'big.txt', 's2.txt']))).toEqual(['s1.txt:60', 'big.txt:no-content', 's2.txt:60']);
    // A first file over the limit alone: nothing at all (the caller re-requests the rest).
    expect(await batch(['medium.txt', 'tiny.txt'])).toEqual([]);
    expect(summary(await batch(['no-such.txt', 'tiny.txt', 'medium.txt']))).toEqual([null, 'tiny.txt:10']);
  });
});

describe('the blob limit on the single-file route', () => {
  it('answers larger files without content, smaller ones with it', async () => {
    const big = await api.get(`${base}/contents/big.txt`, { basic: owner });
    expect(big.status, big.text).toBe(200);
    expect(big.body).toMatchObject({ size: 300, content: null, encoding: null, type: 'file' });
    const tiny = await api.get(`${base}/contents/tiny.txt`, { basic: owner });
    expect(Buffer.from(tiny.body.content, 'base64').toString()).toBe(FILES['tiny.txt']);
    // The raw route is not limited.
    const raw = await fetch(suite.api(`${base}/raw/big.txt`), { headers: { authorization: owner.basic } });
    expect(await raw.text()).toBe(FILES['big.txt']);
  });
});
