/**
 * Releases end to end (issue 14, item 4), over the whole suite: Gitea's `Release` through `gitea-js` and
 * `@octokit/rest` (same route shapes); a release for a missing tag creates it at `target_commitish` (annotated with
 * `tag_message`; a real clone shows it) while a draft's tag waits until the draft is published; drafts are hidden from
 * readers; `draft`/`pre-release` filters, paging, `latest`, by tag; 409/404/422/403 as Gitea; deleting a release keeps
 * its tag, and a tag with a release cannot be deleted (409); `release` webhooks (published, updated, deleted).
 */
import { Octokit } from '@octokit/rest';
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesContract } from '../support/openapi-contract.js';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { gitRunner, httpCloneUrl, workspace } from '../support/git.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { expectApiError } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
let receiver: WebhookReceiver;
const ws = workspace('cairn-e2e-releases-');
let owner: Account;
let reader: Account;
let token: string;
const repo = uniqueName('released');
let base: string;
let head: string;

const releases = (action: string) => receiver.received.filter((r) => r.event === 'release' && r.json?.action === action);
const gitea = () => giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  suite = await sharedTestSuite();
  api = http(suite);
  const admin = await suite.createAdmin();
  owner = await createUser(suite, admin, uniqueName('owner'));
  reader = await createUser(suite, admin, uniqueName('reader'));
  token = await createToken(suite, owner, ['write:repository']);
  expect((await api.post('/user/repos', { basic: owner, body: { name: repo, auto_init: true } })).status).toBe(201);
  base = `/repos/${owner.username}/${repo}`;
  head = (await api.get(`${base}/branches/main`, { basic: owner })).body.commit.id;
  const hook = await api.post(`${base}/hooks`, {
    basic: owner,
    body: { type: 'gitea', active: true, events: ['release'], config: { url: `${receiver.url}/rel`, content_type: 'json' } },
  });
  expect(hook.status, hook.text).toBe(201);
}, 300_000);

afterAll(async () => {
  ws.cleanup();
  await suite?.stop();
  await receiver?.close();
});

describe('releases', () => {
  it('creates a release and its missing tag at target_commitish (gitea-js), as Gitea’s Release, with a webhook', async () => {
    // `tag_message` is Gitea 1.24+; gitea-js 1.23 does not type it.
    const option = { tag_name: 'v1.0', target_commitish: 'main', name: 'One', body: 'notes', tag_message: 'tagged one' };
    const res = await gitea().repos.repoCreateRelease(owner.username, repo, option);
    expect(res.status).toBe(201);
    assertMatchesContract('POST', '/repos/{owner}/{repo}/releases', 201, res.data);
    const html = `${suite.rootUrl}${owner.username}/${repo}`;
    const url = `${suite.rootUrl}api/v1${base}/releases/${res.data.id}`;
    expect(res.data).toMatchObject({
      tag_name: 'v1.0', target_commitish: 'main', name: 'One', body: 'notes', draft: false, prerelease: false,
      url, html_url: `${html}/releases/tag/v1.0`, tarball_url: `${html}/archive/v1.0.tar.gz`, zipball_url: `${html}/archive/v1.0.zip`,
      upload_url: `${url}/assets`, assets: [], author: { login: owner.username },
    });
    expect(res.data.published_at).toBe(res.data.created_at);

    const tag = await api.get(`${base}/tags/v1.0`, { basic: owner });
    expect(tag.body).toMatchObject({ message: 'tagged one', commit: { sha: head } });
    const git = gitRunner(ws.dir('home'));
    const clone = ws.dir('clone');
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, owner.username, repo), clone]);
    expect(await git.ok(['cat-file', '-t', 'v1.0'], { cwd: clone })).toBe('tag');

    await waitFor(() => releases('published').length >= 1, 'release published delivery');
    expect(releases('published')[0].json).toMatchObject({
      action: 'published', release: { id: res.data.id, tag_name: 'v1.0' }, repository: { name: repo }, sender: { login: owner.username },
    });
  });

  it('refuses a second release of a tag (409), a bad tag name (422), an unknown target (404) and readers (403)', async () => {
    expectApiError(await api.post(`${base}/releases`, { token, body: { tag_name: 'v1.0' } }), 409);
    expectApiError(await api.post(`${base}/releases`, { token, body: { tag_name: 'bad..tag' } }), 422);
    expectApiError(await api.post(`${base}/releases`, { token, body: { tag_name: 'v9', target_commitish: 'nope' } }), 404);
    expectApiError(await api.post(`${base}/releases`, { basic: reader, body: { tag_name: 'v8' } }), 403);
    expectApiError(await api.get(`${base}/tags/v9`, { basic: owner }), 404);
  });

  it('keeps a draft’s tag until it is published; drafts are hidden from readers', async () => {
    const draft = await api.post(`${base}/releases`, { token, body: { tag_name: 'v2.0', name: 'Two', draft: true } });
    expect(draft.status, draft.text).toBe(201);
    expect(draft.body).toMatchObject({ draft: true, tag_name: 'v2.0' });
    expectApiError(await api.get(`${base}/tags/v2.0`, { basic: owner }), 404);
    expectApiError(await api.get(`${base}/releases/${draft.body.id}`, { basic: reader }), 404);
    expectApiError(await api.get(`${base}/releases/tags/v2.0`, { basic: reader }), 404);
    const seen = await api.get(`${base}/releases`, { basic: reader });
    expect(seen.body.map((r: { tag_name: string }) => r.tag_name)).toEqual(['v1.0']);
    const drafts = await api.get(`${base}/releases?draft=true`, { basic: owner });
    expect(drafts.body.map((r: { tag_name: string }) => r.tag_name)).toEqual(['v2.0']);

    const published = await gitea().repos.repoEditRelease(owner.username, repo, draft.body.id, { draft: false, body: 'now out' });
    assertMatchesContract('PATCH', '/repos/{owner}/{repo}/releases/{id}', 200, published.data);
    expect(published.data).toMatchObject({ draft: false, body: 'now out', name: 'Two' });
    expect((await api.get(`${base}/tags/v2.0`, { basic: owner })).body.commit.sha).toBe(head);
    await waitFor(() => releases('published').some((r) => r.json.release.tag_name === 'v2.0'), 'draft published delivery');

    const edited = await api.patch(`${base}/releases/${draft.body.id}`, { token, body: { name: 'Two!', prerelease: true } });
    expect(edited.body).toMatchObject({ name: 'Two!', prerelease: true, body: 'now out' });
    await waitFor(() => releases('updated').some((r) => r.json.release.name === 'Two!'), 'release updated delivery');
  });

  it('lists with filters and paging, gets latest and by tag (octokit)', async () => {
    const client = gitea();
    const all = await client.repos.repoListReleases(owner.username, repo);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/releases', 200, all.data);
    expect(all.data.map((r) => r.tag_name)).toEqual(['v2.0', 'v1.0']);
    const pre = await api.get(`${base}/releases?pre-release=true`, { basic: owner });
    expect(pre.body.map((r: { tag_name: string }) => r.tag_name)).toEqual(['v2.0']);
    const paged = await api.get(`${base}/releases?limit=1&page=2`, { basic: owner });
    expect(paged.body.map((r: { tag_name: string }) => r.tag_name)).toEqual(['v1.0']);
    expect(paged.headers.get('x-total-count')).toBe('2');

    const octokit = new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: token });
    const latest = await octokit.repos.getLatestRelease({ owner: owner.username, repo });
    expect(latest.data.tag_name).toBe('v1.0');
    const byTag = await octokit.repos.getReleaseByTag({ owner: owner.username, repo, tag: 'v2.0' });
    expect(byTag.data).toMatchObject({ tag_name: 'v2.0', prerelease: true });
    const made = await octokit.repos.createRelease({ owner: owner.username, repo, tag_name: 'v3.0', name: 'Three', body: 'b' });
    expect(made.status).toBe(201);
    expect((await octokit.repos.listReleases({ owner: owner.username, repo })).data.map((r) => r.tag_name)).toEqual(['v3.0', 'v2.0', 'v1.0']);
    expect((await octokit.repos.getLatestRelease({ owner: owner.username, repo })).data.tag_name).toBe('v3.0');
    const one = await client.repos.repoGetRelease(owner.username, repo, made.data.id);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/releases/{id}', 200, one.data);
    expect(one.data.name).toBe('Three');
    expectApiError(await api.get(`${base}/releases/999999`, { basic: owner }), 404);
    expectApiError(await api.get(`${base}/releases/tags/none`, { basic: owner }), 404);
  });

  it('deletes releases by id and by tag (their tags stay); a tag with a release cannot be deleted (409)', async () => {
    expectApiError(await api.delete(`${base}/tags/v1.0`, { token }), 409);
    const v1 = await api.get(`${base}/releases/tags/v1.0`, { basic: owner });
    expectApiError(await api.delete(`${base}/releases/${v1.body.id}`, { basic: reader }), 403);
    expect((await api.delete(`${base}/releases/${v1.body.id}`, { token })).status).toBe(204);
    expectApiError(await api.get(`${base}/releases/${v1.body.id}`, { basic: owner }), 404);
    expect((await api.get(`${base}/tags/v1.0`, { basic: owner })).status).toBe(200);
    await waitFor(() => releases('deleted').some((r) => r.json.release.tag_name === 'v1.0'), 'release deleted delivery');

    expect((await api.delete(`${base}/releases/tags/v3.0`, { token })).status).toBe(204);
    expectApiError(await api.delete(`${base}/releases/tags/v3.0`, { token }), 404);
    expect((await api.delete(`${base}/tags/v3.0`, { token })).status).toBe(204);
    expectApiError(await api.get(`${base}/releases/latest`, { basic: owner }), 404);
  });

  it('refuses tag and release writes in an archived repository (423)', async () => {
    const name = uniqueName('archived');
    expect((await api.post('/user/repos', { basic: owner, body: { name, auto_init: true } })).status).toBe(201);
    const r = `/repos/${owner.username}/${name}`;
    expect((await api.patch(r, { basic: owner, body: { archived: true } })).status).toBe(200);
    expectApiError(await api.post(`${r}/tags`, { token, body: { tag_name: 'a1' } }), 423);
    expectApiError(await api.post(`${r}/releases`, { token, body: { tag_name: 'a1' } }), 423);
    expect((await api.get(`${r}/releases`, { basic: owner })).status).toBe(200);
  });
});
