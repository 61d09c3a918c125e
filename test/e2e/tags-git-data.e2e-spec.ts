/**
 * Tags and git data end to end (issue 14, item 4), over the whole suite with a history pushed by the real `git`:
 * Gitea's `Tag`, `AnnotatedTag`, `Reference`, `GitTreeResponse` and `GitBlobResponse` through `gitea-js` and
 * `@octokit/rest` (same route shapes), tag creation (lightweight and annotated, 201; existing → 409, unknown target
 * → 404, invalid name → 422, readers → 403), a real clone showing the API-made tags, deletion (204, then 404), the
 * `create`/`delete` webhooks a tag made through the API yields like a pushed one, and Gitea's 400 for unknown ids.
 */
import { randomBytes } from 'node:crypto';
import { Octokit } from '@octokit/rest';
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesContract } from '../support/openapi-contract.js';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { REPO_SUITE_APPS, commitAll, gitRunner, httpCloneUrl, workspace, type Git } from '../support/git.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { FAST_PASSWORD_HASH, expectApiError } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
let receiver: WebhookReceiver;
const ws = workspace('cairn-e2e-tags-');
let git: Git;
let owner: Account;
let reader: Account;
let token: string;
const repo = uniqueName('tagged');
let base: string;
let first: string;
let second: string;

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);
/** `[api] DEFAULT_MAX_BLOB_SIZE` of the suite; LARGE is within it but far beyond one bus message. */
const MAX_BLOB_SIZE = 3 * 1024 * 1024;
const LARGE = randomBytes(2 * 1024 * 1024 + 3);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  suite = await startTestSuite({
    apps: REPO_SUITE_APPS,
    env: {
      ...FAST_PASSWORD_HASH,
      CAIRN__WEBHOOK__ALLOWED_HOST_LIST: 'loopback',
      CAIRN__WEBHOOK__RETRY_BASE_DELAY: '100ms',
      CAIRN__API__DEFAULT_MAX_BLOB_SIZE: String(MAX_BLOB_SIZE),
    },
  });
  api = http(suite);
  git = gitRunner(ws.dir('home'));
  const admin = await suite.createAdmin();
  owner = await createUser(suite, admin, uniqueName('owner'));
  reader = await createUser(suite, admin, uniqueName('reader'));
  token = await createToken(suite, owner, ['write:repository']);
  expect((await api.post('/user/repos', { basic: owner, body: { name: repo } })).status).toBe(201);
  base = `/repos/${owner.username}/${repo}`;
  const hook = await api.post(`${base}/hooks`, {
    basic: owner,
    body: { type: 'gitea', active: true, events: ['create', 'delete'], config: { url: `${receiver.url}/tags`, content_type: 'json' } },
  });
  expect(hook.status, hook.text).toBe(201);

  const dir = ws.dir('work');
  await git.ok(['init', '-q', '-b', 'main', dir]);
  first = await commitAll(git, dir, { 'a.txt': 'alpha\n', 'docs/guide.md': 'guide\n' }, 'first', at('2024-01-01T00:00:00Z'));
  await git.ok(['tag', 'v0.1'], { cwd: dir });
  second = await commitAll(git, dir, { 'b.bin': Buffer.from([0, 1, 2, 255]) }, 'second', at('2024-02-01T00:00:00Z'));
  await git.ok(['tag', '-a', 'v0.2', '-m', 'second release'], {
    cwd: dir,
    env: { GIT_COMMITTER_DATE: '@1706745600 +0000' },
  });
  // Branch `big`: blobs beyond one bus message, and beyond `[api] DEFAULT_MAX_BLOB_SIZE`.
  await git.ok(['checkout', '-q', '-b', 'big'], { cwd: dir });
  await commitAll(git, dir, { 'large.bin': LARGE, 'huge.bin': randomBytes(MAX_BLOB_SIZE + 1) }, 'big', at('2024-03-01T00:00:00Z'));
  await git.ok(['checkout', '-q', 'main'], { cwd: dir });
  const url = httpCloneUrl(suite.baseUrl, owner.username, repo, { username: owner.username, secret: owner.password });
  await git.ok(['push', '-q', url, 'main', 'big', 'v0.1', 'v0.2'], { cwd: dir });
}, 300_000);

afterAll(async () => {
  ws.cleanup();
  await suite?.stop();
  await receiver?.close();
});

describe('tags', () => {
  it('lists tags newest first as Gitea’s Tag (gitea-js), pages them, and gets one', async () => {
    const client = giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
    const list = await client.repos.repoListTags(owner.username, repo);
    expect(list.data.map((t) => t.name)).toEqual(['v0.2', 'v0.1']);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/tags', 200, list.data);
    const v01 = list.data[1];
    expect(v01).toMatchObject({
      id: first,
      message: 'first',
      commit: { sha: first, url: `${suite.rootUrl}api/v1${base}/git/commits/${first}` },
      zipball_url: `${suite.rootUrl}${owner.username}/${repo}/archive/v0.1.zip`,
      tarball_url: `${suite.rootUrl}${owner.username}/${repo}/archive/v0.1.tar.gz`,
    });
    const v02 = list.data[0];
    expect(v02.id).not.toBe(second);
    expect(v02).toMatchObject({ message: 'second release', commit: { sha: second } });

    const paged = await api.get(`${base}/tags?limit=1&page=2`, { basic: owner });
    expect(paged.status, paged.text).toBe(200);
    expect(paged.body.map((t: { name: string }) => t.name)).toEqual(['v0.1']);
    expect(paged.headers.get('x-total-count')).toBe('2');

    const one = await client.repos.repoGetTag(owner.username, repo, 'v0.2');
    assertMatchesContract('GET', '/repos/{owner}/{repo}/tags/{tag}', 200, one.data);
    expect(one.data).toEqual(v02);
    expectApiError(await api.get(`${base}/tags/nope`, { basic: owner }), 404);
  });

  it('creates lightweight and annotated tags (201), refuses duplicates, unknown targets, bad names and readers', async () => {
    const light = await api.post(`${base}/tags`, { token, body: { tag_name: 'light', target: first } });
    expect(light.status, light.text).toBe(201);
    assertMatchesContract('POST', '/repos/{owner}/{repo}/tags', 201, light.body);
    expect(light.body).toMatchObject({ name: 'light', id: first, commit: { sha: first } });

    const client = giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
    const annotated = await client.repos.repoCreateTag(owner.username, repo, { tag_name: 'v1.0', message: 'one point oh' });
    expect(annotated.status).toBe(201);
    expect(annotated.data).toMatchObject({ name: 'v1.0', message: 'one point oh', commit: { sha: second } });
    expect(annotated.data.id).not.toBe(second);

    expectApiError(await api.post(`${base}/tags`, { token, body: { tag_name: 'light' } }), 409);
    expectApiError(await api.post(`${base}/tags`, { token, body: { tag_name: 'x', target: 'no-such-branch' } }), 404);
    expectApiError(await api.post(`${base}/tags`, { token, body: { tag_name: 'bad..name' } }), 422);
    expectApiError(await api.post(`${base}/tags`, { token, body: { tag_name: '-x' } }), 422);
    expectApiError(await api.post(`${base}/tags`, { basic: reader, body: { tag_name: 'r1' } }), 403);

    // A real clone sees both tags, the annotated one as a tag object.
    const clone = ws.dir('clone');
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, owner.username, repo), clone]);
    expect((await git.ok(['tag', '--list'], { cwd: clone })).split('\n')).toEqual(['light', 'v0.1', 'v0.2', 'v1.0']);
    expect(await git.ok(['cat-file', '-t', 'v1.0'], { cwd: clone })).toBe('tag');
    expect(await git.ok(['rev-parse', 'v1.0^{commit}'], { cwd: clone })).toBe(second);

    // The API-made tag yields Gitea's `create` webhook, like a pushed one.
    await waitFor(() => receiver.received.some((r) => r.event === 'create' && r.json?.ref === 'v1.0'), 'create delivery');
    expect(receiver.received.find((r) => r.event === 'create' && r.json?.ref === 'v1.0')!.json).toMatchObject({
      ref: 'v1.0', ref_type: 'tag', repository: { name: repo },
    });
  });

  it('deletes a tag (204), then it is gone (404), with a `delete` webhook', async () => {
    expectApiError(await api.delete(`${base}/tags/light`, { basic: reader }), 403);
    const del = await api.delete(`${base}/tags/light`, { token });
    expect(del.status, del.text).toBe(204);
    expectApiError(await api.get(`${base}/tags/light`, { basic: owner }), 404);
    expectApiError(await api.delete(`${base}/tags/light`, { token }), 404);
    await waitFor(() => receiver.received.some((r) => r.event === 'delete' && r.json?.ref === 'light'), 'delete delivery');
  });
});

describe('git data', () => {
  it('lists refs (all, under a prefix; one exact ref as an object) with octokit’s git.getRef shape', async () => {
    const all = await api.get(`${base}/git/refs`, { basic: owner });
    expect(all.status, all.text).toBe(200);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/git/refs', 200, all.body);
    expect(all.body.map((r: { ref: string }) => r.ref)).toEqual(
      expect.arrayContaining(['refs/heads/main', 'refs/tags/v0.1', 'refs/tags/v0.2', 'refs/tags/v1.0']),
    );
    const tags = await api.get(`${base}/git/refs/tags`, { basic: owner });
    expect(tags.status, tags.text).toBe(200);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/git/refs/{ref}', 200, tags.body);
    const v02 = tags.body.find((r: { ref: string }) => r.ref === 'refs/tags/v0.2');
    expect(v02.object.type).toBe('tag');
    expect(v02.url).toBe(`${suite.rootUrl}api/v1${base}/git/refs/tags/v0.2`);

    const octokit = new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: token });
    const main = await octokit.request('GET /repos/{owner}/{repo}/git/refs/{ref}', { owner: owner.username, repo, ref: 'heads/main' });
    expect(main.data).toEqual({
      ref: 'refs/heads/main',
      url: `${suite.rootUrl}api/v1${base}/git/refs/heads/main`,
      object: { type: 'commit', sha: second, url: `${suite.rootUrl}api/v1${base}/git/commits/${second}` },
    });
    expectApiError(await api.get(`${base}/git/refs/heads/nope`, { basic: owner }), 404);
  });

  it('gets an annotated tag object; a lightweight tag or unknown id is 400', async () => {
    const tags = await api.get(`${base}/git/refs/tags/v0.2`, { basic: owner });
    const sha = tags.body.object.sha as string;
    const client = giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
    const tag = await client.repos.getAnnotatedTag(owner.username, repo, sha);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/git/tags/{sha}', 200, tag.data);
    expect(tag.data).toMatchObject({
      tag: 'v0.2',
      sha,
      message: 'second release\n',
      url: `${suite.rootUrl}api/v1${base}/git/tags/${sha}`,
      object: { type: 'commit', sha: second },
      tagger: { name: 'E2E Committer', email: 'e2e-committer@example.com', date: '2024-02-01T00:00:00Z' },
    });
    expectApiError(await api.get(`${base}/git/tags/${first}`, { basic: owner }), 400);
    expectApiError(await api.get(`${base}/git/tags/not-hex`, { basic: owner }), 400);
  });

  it('gets trees (flat, recursive, paged; by commit, ref or tree id) with gitea-js and octokit', async () => {
    const client = giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
    const flat = await client.repos.getTree(owner.username, repo, second);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/git/trees/{sha}', 200, flat.data);
    expect(flat.data).toMatchObject({ sha: second, page: 1, total_count: 3, truncated: false });
    expect(flat.data.tree!.map((e) => [e.path, e.type, e.mode])).toEqual([
      ['a.txt', 'blob', '100644'], ['b.bin', 'blob', '100644'], ['docs', 'tree', '040000'],
    ]);
    expect(flat.data.tree![0]).toMatchObject({ size: 6, url: `${suite.rootUrl}api/v1${base}/git/blobs/${flat.data.tree![0].sha}` });
    const docs = flat.data.tree![2];
    expect(docs).toMatchObject({ size: 0, url: `${suite.rootUrl}api/v1${base}/git/trees/${docs.sha}` });

    const octokit = new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: token });
    const rec = await octokit.git.getTree({ owner: owner.username, repo, tree_sha: 'main', recursive: 'true' });
    expect(rec.data.tree.map((e) => e.path)).toEqual(['a.txt', 'b.bin', 'docs', 'docs/guide.md']);
    expect(rec.data.truncated).toBe(false);

    const paged = await api.get(`${base}/git/trees/main?recursive=true&per_page=3&page=1`, { basic: owner });
    expect(paged.body).toMatchObject({ total_count: 4, truncated: true, page: 1 });
    expect(paged.body.tree).toHaveLength(3);
    const past = await api.get(`${base}/git/trees/main?per_page=3&page=9`, { basic: owner });
    expect(past.body).toMatchObject({ total_count: 3, truncated: false, page: 9 });

    const byTree = await api.get(`${base}/git/trees/${docs.sha}`, { basic: owner });
    expect(byTree.body).toMatchObject({ sha: docs.sha, total_count: 1 });
    expectApiError(await api.get(`${base}/git/trees/${'0'.repeat(40)}`, { basic: owner }), 400);
  });

  it('gets a blob as base64, byte for byte (gitea-js and octokit); a non-blob is 400', async () => {
    const flat = await api.get(`${base}/git/trees/${second}`, { basic: owner });
    const bin = flat.body.tree.find((e: { path: string }) => e.path === 'b.bin');
    const client = giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
    const blob = await client.repos.getBlob(owner.username, repo, bin.sha);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/git/blobs/{sha}', 200, blob.data);
    expect(blob.data).toMatchObject({ sha: bin.sha, size: 4, encoding: 'base64', url: `${suite.rootUrl}api/v1${base}/git/blobs/${bin.sha}` });
    expect(Buffer.from(blob.data.content!, 'base64')).toEqual(Buffer.from([0, 1, 2, 255]));
    const octokit = new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: token });
    const same = await octokit.git.getBlob({ owner: owner.username, repo, file_sha: bin.sha });
    expect(same.data.content).toBe(blob.data.content);
    expectApiError(await api.get(`${base}/git/blobs/${second}`, { basic: owner }), 400);
  });

  it('returns a blob too large for one bus message byte for byte, and none beyond DEFAULT_MAX_BLOB_SIZE (null content)', async () => {
    const tree = await api.get(`${base}/git/trees/big`, { basic: owner });
    const entry = (name: string) => tree.body.tree.find((e: { path: string }) => e.path === name);
    const large = await api.get(`${base}/git/blobs/${entry('large.bin').sha}`, { basic: owner });
    expect(large.status, large.text.slice(0, 200)).toBe(200);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/git/blobs/{sha}', 200, large.body);
    expect(large.body).toMatchObject({ size: LARGE.length, encoding: 'base64' });
    expect(Buffer.from(large.body.content, 'base64').equals(LARGE)).toBe(true);
    const huge = await api.get(`${base}/git/blobs/${entry('huge.bin').sha}`, { basic: owner });
    expect(huge.body).toMatchObject({ size: MAX_BLOB_SIZE + 1, content: null, encoding: null });
  });
});
