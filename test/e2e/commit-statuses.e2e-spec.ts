/**
 * Commit statuses end to end (Gitea's `routers/api/v1/repo/status.go`, `tests/integration/api_repo_git_commit_test`
 * and `pull_status_test`-style checks): the whole suite, driven with gitea-js (generated from Gitea's description)
 * and @octokit/rest (GitHub has the same routes), plain HTTP for headers and refusals, and a real webhook receiver
 * for the `status` event.
 */
import { Octokit } from '@octokit/rest';
import { giteaApi, type CreateStatusOption } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { waitFor } from '../support/wait.js';

let suite: TestSuite;
let api: HttpClient;
let receiver: WebhookReceiver;
let alice: Account;
let reader: Account;
let stranger: Account;
let aliceToken: string;
let aliceReadToken: string;
let readerToken: string;
let strangerToken: string;
const repo = uniqueName('status');
const secret = uniqueName('private');
let main: string;
let topic: string;

const r = (path = '', name = repo) => `/repos/${alice.username}/${name}${path}`;

async function report(sha: string, body: Record<string, unknown>, name = repo) {
  const res = await api.post(r(`/statuses/${sha}`, name), { token: aliceToken, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  suite = await sharedTestSuite();
  api = http(suite);
  const admin = await suite.createAdmin();
  alice = await createUser(suite, admin, uniqueName('alice'));
  reader = await createUser(suite, admin, uniqueName('reader'));
  stranger = await createUser(suite, admin, uniqueName('stranger'));
  aliceToken = await createToken(suite, alice, ['write:repository']);
  aliceReadToken = await createToken(suite, alice, ['read:repository']);
  readerToken = await createToken(suite, reader, ['write:repository']);
  strangerToken = await createToken(suite, stranger, ['write:repository']);
  for (const [name, priv] of [[repo, false], [secret, true]] as const) {
    const made = await api.post('/user/repos', { token: aliceToken, body: { name, auto_init: true, default_branch: 'main', private: priv } });
    expect(made.status, made.text).toBe(201);
    const collab = await api.put(r(`/collaborators/${reader.username}`, name), { token: aliceToken, body: { permission: 'read' } });
    expect(collab.status, collab.text).toBe(204);
  }
  main = (await api.get(r('/branches/main'), { token: aliceToken })).body.commit.id;
  const file = await api.post(r('/contents/topic.txt'), {
    token: aliceToken,
    body: { content: Buffer.from('t\n').toString('base64'), new_branch: 'topic' },
  });
  expect(file.status, file.text).toBe(201);
  topic = file.body.commit.sha;
}, 300_000);

afterAll(async () => {
  await suite?.stop();
  await receiver?.close();
});

describe('gitea-js (Gitea 1.23 client)', () => {
  it('creates a status and reads it back by sha, by ref and combined', async () => {
    const client = giteaApi(suite.baseUrl, { token: aliceToken, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
    const option = { state: 'pending', context: 'gitea-js/build', description: '  building  ', target_url: 'https://ci.example/7' };
    const created = await client.repos.repoCreateStatus(alice.username, repo, topic, option as CreateStatusOption);
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      id: 1,
      status: 'pending',
      context: 'gitea-js/build',
      description: 'building',
      target_url: 'https://ci.example/7',
      url: `${suite.rootUrl}api/v1/repos/${alice.username}/${repo}/statuses/${topic}`,
      creator: { login: alice.username },
    });
    expect(created.data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const bySha = await client.repos.repoListStatuses(alice.username, repo, topic);
    expect(bySha.data.map((s) => s.context)).toEqual(['gitea-js/build']);
    const byRef = await client.repos.repoListStatusesByRef(alice.username, repo, 'topic');
    expect(byRef.data).toEqual(bySha.data);
    const combined = await client.repos.repoGetCombinedStatusByRef(alice.username, repo, 'topic');
    expect(combined.data).toMatchObject({
      state: 'pending',
      sha: topic,
      total_count: 1,
      repository: { full_name: `${alice.username}/${repo}` },
      commit_url: `${suite.rootUrl}api/v1/repos/${alice.username}/${repo}/commits/${topic}`,
      url: `${suite.rootUrl}api/v1/repos/${alice.username}/${repo}/commits/${topic}/status`,
    });
  });
});

describe('@octokit/rest (GitHub routes of the same shape)', () => {
  it('createCommitStatus, listCommitStatusesForRef, getCombinedStatusForRef', async () => {
    const octokit = new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: aliceToken });
    const owner = alice.username;
    const a = await octokit.repos.createCommitStatus({ owner, repo, sha: main, state: 'success', context: 'octo/lint' });
    expect(a.status).toBe(201);
    expect(a.data).toMatchObject({ context: 'octo/lint', creator: { login: owner } });
    await octokit.repos.createCommitStatus({ owner, repo, sha: main, state: 'failure', context: 'octo/test' });
    const listed = await octokit.repos.listCommitStatusesForRef({ owner, repo, ref: 'main' });
    expect(listed.data.map((s) => s.context)).toEqual(['octo/test', 'octo/lint']);
    const combined = await octokit.repos.getCombinedStatusForRef({ owner, repo, ref: main });
    expect(combined.data).toMatchObject({ state: 'failure', sha: main, total_count: 2 });
  });
});

describe('the combined state (Gitea: failure > pending > success, latest per context)', () => {
  it('follows the latest report of each context', async () => {
    const name = uniqueName('combine');
    const made = await api.post('/user/repos', { token: aliceToken, body: { name, auto_init: true, default_branch: 'main' } });
    expect(made.status, made.text).toBe(201);
    const sha = (await api.get(r('/branches/main', name), { token: aliceToken })).body.commit.id;
    const combined = async () => {
      const res = await api.get(r('/commits/main/status', name), { token: aliceToken });
      expect(res.status, res.text).toBe(200);
      return res;
    };

    // No status: Gitea's empty state and no statuses.
    const none = await combined();
    expect(none.body).toMatchObject({ state: '', sha, total_count: 0, statuses: null });
    expect(none.headers.get('x-total-count')).toBe('0');

    await report(sha, { state: 'error', context: 'ci/build' }, name);
    await report(sha, { state: 'warning', context: 'ci/lint' }, name);
    expect((await combined()).body.state).toBe('failure');
    await report(sha, { state: 'pending', context: 'ci/build' }, name);
    expect((await combined()).body.state).toBe('pending');
    await report(sha, { state: 'success', context: 'ci/build' }, name);
    await report(sha, { state: 'skipped', context: 'ci/docs' }, name);
    const done = await combined();
    expect(done.body.state).toBe('success');
    expect(done.body.statuses.map((s: { context: string; status: string; id: number }) => [s.context, s.status, s.id])).toEqual([
      ['ci/docs', 'skipped', 5],
      ['ci/build', 'success', 4],
      ['ci/lint', 'warning', 2],
    ]);
    expect(done.headers.get('x-total-count')).toBe('3');

    // A page of contexts; the total still counts them all.
    const page = await api.get(r('/commits/main/status?limit=1&page=2', name), { token: aliceToken });
    expect([page.body.total_count, page.body.statuses.map((s: { context: string }) => s.context), page.headers.get('x-total-count')])
      .toEqual([1, ['ci/build'], '3']);

    // The list keeps every report: Gitea's sort and state filter, X-Total-Count and Link.
    const all = await api.get(r(`/statuses/${sha}`, name), { token: aliceToken });
    expect(all.body.map((s: { id: number }) => s.id)).toEqual([5, 4, 3, 2, 1]);
    expect(all.headers.get('x-total-count')).toBe('5');
    const oldest = await api.get(r(`/statuses/${sha}?sort=oldest&limit=2`, name), { token: aliceToken });
    expect(oldest.body.map((s: { id: number }) => s.id)).toEqual([1, 2]);
    expect(oldest.headers.get('link')).toContain('rel="next"');
    const errors = await api.get(r(`/commits/${sha.slice(0, 10)}/statuses?state=error`, name), { token: aliceToken });
    expect(errors.body.map((s: { status: string }) => s.status)).toEqual(['error']);
    expect(errors.headers.get('x-total-count')).toBe('1');
  });
});

describe('branch names with slashes (Renovate escapes them: commits/renovate%2Fdep/statuses)', () => {
  it('resolves an escaped branch name on the list and combined routes', async () => {
    const file = await api.post(r('/contents/dep.txt'), {
      token: aliceToken,
      body: { content: Buffer.from('d\n').toString('base64'), new_branch: 'renovate/dep' },
    });
    expect(file.status, file.text).toBe(201);
    await report(file.body.commit.sha, { state: 'success', context: 'renovate/stability-days' });
    const listed = await api.get(r('/commits/renovate%2Fdep/statuses'), { token: aliceToken });
    expect([listed.status, listed.body.map((s: { context: string }) => s.context)]).toEqual([200, ['renovate/stability-days']]);
    const combined = await api.get(r('/commits/renovate%2Fdep/status'), { token: aliceToken });
    expect([combined.status, combined.body.state, combined.body.sha]).toEqual([200, 'success', file.body.commit.sha]);
  });
});

describe('refusals', () => {
  it('needs write access: read-only collaborator 403, read-only token 403, anonymous 401', async () => {
    const body = { state: 'success', context: 'x' };
    const asReader = await api.post(r(`/statuses/${main}`), { token: readerToken, body });
    expect(asReader.status, asReader.text).toBe(403);
    const readScope = await api.post(r(`/statuses/${main}`), { token: aliceReadToken, body });
    expect(readScope.status, readScope.text).toBe(403);
    const anonymous = await api.post(r(`/statuses/${main}`), { body });
    expect(anonymous.status, anonymous.text).toBe(401);
    // Reading a public repository's statuses needs nothing.
    expect((await api.get(r(`/statuses/${main}`))).status).toBe(200);
  });

  it('hides a private repository: anonymous and strangers 404, collaborators read', async () => {
    const sha = (await api.get(r('/branches/main', secret), { token: aliceToken })).body.commit.id;
    await report(sha, { state: 'success', context: 'private/ci' }, secret);
    for (const path of [`/statuses/${sha}`, '/commits/main/statuses', '/commits/main/status']) {
      expect((await api.get(r(path, secret))).status, path).toBe(404);
      expect((await api.get(r(path, secret), { token: strangerToken })).status, path).toBe(404);
      expect((await api.get(r(path, secret), { token: readerToken })).status, path).toBe(200);
    }
    const stranger = await api.post(r(`/statuses/${sha}`, secret), { token: strangerToken, body: { state: 'success' } });
    expect(stranger.status, stranger.text).toBe(404);
  });

  it('answers 404 for a ref that names no commit on the /commits/{ref} routes; /statuses/{sha} lists nothing', async () => {
    expect((await api.get(r('/commits/no-such-branch/statuses'), { token: aliceToken })).status).toBe(404);
    expect((await api.get(r('/commits/no-such-branch/status'), { token: aliceToken })).status).toBe(404);
    const bySha = await api.get(r(`/statuses/${'f'.repeat(40)}`), { token: aliceToken });
    expect([bySha.status, bySha.body]).toEqual([200, []]);
  });

  it('refuses a bad state (422) and an unknown commit (404)', async () => {
    const bad = await api.post(r(`/statuses/${main}`), { token: aliceToken, body: { state: 'done', context: 'x' } });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.text).toContain('state');
    const missing = await api.post(r(`/statuses/${'0123456789'.repeat(4)}`), { token: aliceToken, body: { state: 'success' } });
    expect(missing.status, missing.text).toBe(404);
  });
});

describe('the status webhook', () => {
  it("delivers Gitea's CommitStatusPayload to hooks subscribed to status", async () => {
    const hook = await api.post(r('/hooks'), {
      token: aliceToken,
      body: { type: 'gitea', active: true, events: ['status'], config: { url: `${receiver.url}/status`, content_type: 'json' } },
    });
    expect(hook.status, hook.text).toBe(201);
    const created = await report(topic, { state: 'failure', context: 'hook/ci', description: 'red', target_url: 'https://ci.example/9' });
    const delivery = await waitFor(
      () => receiver.received.find((d) => d.path === '/status' && d.json?.context === 'hook/ci'),
      'the status delivery',
    );
    expect(delivery.event).toBe('status');
    expect(delivery.headers['x-gitea-event-type']).toBe('status');
    expect(delivery.json).toMatchObject({
      sha: topic,
      state: 'failure',
      context: 'hook/ci',
      description: 'red',
      target_url: 'https://ci.example/9',
      created_at: created.created_at,
      updated_at: created.updated_at,
      commit: { id: topic, message: 'Add topic.txt\n', added: ['topic.txt'] },
      repository: { full_name: `${alice.username}/${repo}` },
      sender: { login: alice.username },
    });
    expect(typeof delivery.json.id).toBe('number');
  });
});
