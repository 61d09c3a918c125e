/**
 * Gitea's user routes of issue 14 (item 10), end to end: site administrators manage another user's SSH keys
 * (`/admin/users/{username}/keys`, also through gitea-js); a user's own hooks (`/user/hooks`) are managed like an
 * organization's and receive the pushes to every repository the user owns.
 */
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import {
  REPO_SUITE_APPS, commitAll, generateSshKey, gitSshCommand, gitRunner, httpCloneUrl, sshCloneUrl, workspace, type Git,
} from '../support/git.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { FAST_PASSWORD_HASH, expectApiError } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
const ws = workspace('cairn-e2e-users-');
let git: Git;
let admin: Account;
let alice: Account;
let bob: Account;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  suite = await startTestSuite({
    apps: REPO_SUITE_APPS,
    env: { ...FAST_PASSWORD_HASH, CAIRN__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' },
  });
  api = http(suite);
  git = gitRunner(ws.dir('home'));
  admin = await suite.createAdmin();
  [alice, bob] = await Promise.all(['alice', 'bob'].map((s) => createUser(suite, admin, uniqueName(s))));
});

afterAll(async () => {
  await suite?.stop();
  await receiver?.close();
  ws.cleanup();
});

describe('admin: user keys', () => {
  it("adds a key for a user (gitea-js adminCreatePublicKey) that then authenticates as that user, and deletes it", async () => {
    const token = await createToken(suite, admin, ['write:admin', 'write:repository']);
    const client = giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
    const key = await generateSshKey(ws.dir('alice-key'), 'alice@laptop');
    const created = await client.admin.adminCreatePublicKey(alice.username, { title: 'given by admin', key: key.publicKey });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      title: 'given by admin',
      url: `${suite.rootUrl}api/v1/user/keys/${created.data.id}`,
      user: { login: alice.username },
    });
    const own = await api.get('/user/keys', { basic: alice });
    expect(own.body.map((k: { id: number }) => k.id)).toEqual([created.data.id]);

    // The key is alice's: it reaches her private repository over SSH.
    const repo = uniqueName('private');
    expect((await api.post('/user/repos', { basic: alice, body: { name: repo, private: true, auto_init: true } })).status).toBe(201);
    await git.ok(['ls-remote', sshCloneUrl(suite.sshPort, alice.username, repo)], {
      env: { GIT_SSH_COMMAND: gitSshCommand(key.privateKeyPath, suite.sshPort) },
    });

    // Through another user's path the key is not theirs (Gitea: 403); unknown users and keys are 404.
    expectApiError(await api.delete(`/admin/users/${bob.username}/keys/${created.data.id}`, { basic: admin }), 403);
    expectApiError(await api.delete(`/admin/users/${uniqueName('ghost')}/keys/${created.data.id}`, { basic: admin }), 404);
    expect((await client.admin.adminDeleteUserPublicKey(alice.username, created.data.id!)).status).toBe(204);
    expectApiError(await api.delete(`/admin/users/${alice.username}/keys/${created.data.id}`, { basic: admin }), 404);
  });

  it('is for site administrators only, and refuses bad keys and unknown users', async () => {
    const key = await generateSshKey(ws.dir('bob-key'), 'bob@laptop');
    expectApiError(await api.post(`/admin/users/${alice.username}/keys`, { basic: bob, body: { title: 'x', key: key.publicKey } }), 403);
    expectApiError(await api.post(`/admin/users/${alice.username}/keys`, { basic: admin, body: { title: 'x', key: 'nonsense' } }), 422);
    expectApiError(await api.post(`/admin/users/${uniqueName('ghost')}/keys`, { basic: admin, body: { title: 'x', key: key.publicKey } }), 404);
  });
});

describe('user hooks', () => {
  it("are the caller's own (gitea-js userCreateHook), and receive a push to the user's repository", async () => {
    const token = await createToken(suite, alice, ['write:user']);
    const client = giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
    const created = await client.user.userCreateHook({
      type: 'gitea',
      active: true,
      events: ['push'],
      config: { url: `${receiver.url}/alice-hook`, content_type: 'json' },
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ type: 'gitea', active: true, events: ['push'] });
    const id = created.data.id!;
    expect((await client.user.userListHooks()).data.map((h) => h.id)).toEqual([id]);
    expect((await client.user.userGetHook(id)).data.config?.url).toBe(`${receiver.url}/alice-hook`);
    // Another user neither lists nor reaches it.
    expect((await api.get('/user/hooks', { basic: bob })).body).toEqual([]);
    expectApiError(await api.get(`/user/hooks/${id}`, { basic: bob }), 404);
    expectApiError(await api.delete(`/user/hooks/${id}`, { basic: bob }), 404);

    const repo = uniqueName('hooked');
    expect((await api.post('/user/repos', { basic: alice, body: { name: repo, auto_init: true } })).status).toBe(201);
    const dir = ws.dir('hooked');
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, alice.username, repo, { username: alice.username, secret: alice.password }), dir]);
    const head = await commitAll(git, dir, { 'hook.txt': 'delivered\n' }, 'for the user hook');
    await git.ok(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir });
    const delivery = await waitFor(
      () => receiver.received.find((d) => d.path === '/alice-hook' && d.json?.after === head),
      "the push delivered to alice's hook",
    );
    expect(delivery.event).toBe('push');
    expect(delivery.json.repository.full_name).toBe(`${alice.username}/${repo}`);

    const edited = await client.user.userEditHook(id, { active: false });
    expect(edited.data.active).toBe(false);
    expect((await client.user.userDeleteHook(id)).status).toBe(204);
    expectApiError(await api.get(`/user/hooks/${id}`, { basic: alice }), 404);
  });
});
