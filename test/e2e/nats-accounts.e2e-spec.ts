/**
 * Finding 9, the whole suite: every app logs in to NATS as its own least-privilege user of the generated
 * deploy/nats accounts (docs/nats-security.md) — the gateway's calls to every service, repo-service's calls to
 * identity and hooks, the outbox → JetStream → hooks-service consumer path and a webhook delivery all work within
 * those permissions (release events included), and nobody gets in without a login.
 */
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, http as httpClient, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { REPO_SUITE_APPS, commitAll, gitRunner, httpCloneUrl, workspace, type Git } from '../support/git.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
let alice: Account;
let git: Git;
let receiver: WebhookReceiver;
const ws = workspace('cairn-e2e-nats-accounts-');

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  suite = await startTestSuite({
    apps: REPO_SUITE_APPS,
    natsAuth: true,
    env: { ...FAST_PASSWORD_HASH, CAIRN__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' },
  });
  api = httpClient(suite);
  const admin = await suite.createAdmin();
  alice = await createUser(suite, admin, uniqueName('alice'));
  git = gitRunner(ws.dir('home'));
}, 300_000);

afterAll(async () => {
  await suite?.stop();
  await receiver?.close();
  ws.cleanup();
});

describe('a suite on NATS with per-service logins', () => {
  it('refuses a connection without a login', async () => {
    await expect(connect({ servers: suite.env.NATS_URL, reconnect: false })).rejects.toThrow(/Authorization/i);
  });

  it('is ready: the gateway reaches every service health subject', async () => {
    const res = await fetch(`${suite.baseUrl}/readyz`);
    expect(res.status).toBe(200);
  });

  it('creates a repository, takes a push and delivers its webhook', async () => {
    const repo = uniqueName('repo');
    expect((await api.post('/user/repos', { basic: alice, body: { name: repo, auto_init: true } })).status).toBe(201);
    const hook = await api.post(`/repos/${alice.username}/${repo}/hooks`, {
      basic: alice,
      body: { type: 'gitea', active: true, events: ['push'], config: { url: `${receiver.url}/push`, content_type: 'json' } },
    });
    expect(hook.status).toBe(201);
    const clone = ws.dir('clone');
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, alice.username, repo, { username: alice.username, secret: alice.password }), clone]);
    const sha = await commitAll(git, clone, { 'x.txt': 'x\n' }, 'add x');
    await git.ok(['push', '-q', 'origin', 'HEAD'], { cwd: clone });
    const push = await waitFor(
      () => receiver.received.find((r) => r.path === '/push' && r.headers['x-gitea-event'] === 'push'),
      'the push delivery',
    );
    expect((push.json as { after?: string }).after).toBe(sha);
    // No app hit a permission it lacks.
    for (const app of REPO_SUITE_APPS) {
      expect(suite.lastLines(app, 200).join('\n')).not.toMatch(/Permissions Violation/i);
    }
  });

  it('publishes release events within its permissions: a release webhook arrives (the generated accounts once lacked them)', async () => {
    const repo = uniqueName('rel');
    expect((await api.post('/user/repos', { basic: alice, body: { name: repo, auto_init: true } })).status).toBe(201);
    const hook = await api.post(`/repos/${alice.username}/${repo}/hooks`, {
      basic: alice,
      body: { type: 'gitea', active: true, events: ['release'], config: { url: `${receiver.url}/release`, content_type: 'json' } },
    });
    expect(hook.status).toBe(201);
    const created = await api.post(`/repos/${alice.username}/${repo}/releases`, {
      basic: alice,
      body: { tag_name: 'v1.0.0', name: 'One', body: 'first' },
    });
    expect(created.status).toBe(201);
    const delivered = await waitFor(
      () => receiver.received.find((r) => r.path === '/release' && r.headers['x-gitea-event'] === 'release'),
      'the release delivery',
    );
    expect(delivered.json).toMatchObject({ action: 'published', release: { tag_name: 'v1.0.0' } });
    expect(suite.lastLines('repo-service', 200).join('\n')).not.toMatch(/Permissions Violation/i);
  });

  it("deletes an organization: identity asks repo-service, hooks-service's owner consumer drops its hooks", async () => {
    const org = uniqueName('org');
    expect((await api.post('/orgs', { basic: alice, body: { username: org } })).status).toBe(201);
    const hook = await api.post(`/orgs/${org}/hooks`, {
      basic: alice,
      body: { type: 'gitea', active: false, config: { url: `${receiver.url}/org`, content_type: 'json' } },
    });
    expect(hook.status).toBe(201);
    const repo = uniqueName('repo');
    expect((await api.post(`/orgs/${org}/repos`, { basic: alice, body: { name: repo } })).status).toBe(201);
    // The 422 is repo-service's count, reached with identity's own login.
    expect((await api.delete(`/orgs/${org}`, { basic: alice })).status).toBe(422);
    expect((await api.delete(`/repos/${org}/${repo}`, { basic: alice })).status).toBe(204);
    expect((await api.delete(`/orgs/${org}`, { basic: alice })).status).toBe(204);
    await waitFor(() => suite.lastLines('hooks-service', 200).some((l) => l.includes('removed 1 hook(s) of owner')), 'the hook removal');
    for (const app of REPO_SUITE_APPS) {
      expect(suite.lastLines(app, 200).join('\n')).not.toMatch(/Permissions Violation/i);
    }
  });
});
