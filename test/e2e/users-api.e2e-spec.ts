/**
 * Gitea's user routes of issue 14 (item 10), end to end: site administrators manage another user's SSH keys
 * (`/admin/users/{username}/keys`, also through gitea-js); a user's own hooks (`/user/hooks`) are managed like an
 * organization's and receive the pushes to every repository the user owns; stars and watches (gitea-js, Octokit's
 * activity calls), with `stars_count` / `watchers_count` in the Repository JSON and private repositories kept out of
 * other people's lists.
 */
import { Octokit } from '@octokit/rest';
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { commitAll, generateSshKey, gitSshCommand, gitRunner, httpCloneUrl, sshCloneUrl, workspace, type Git } from '../support/git.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { expectApiError } from './identity-helpers.js';

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
  suite = await sharedTestSuite();
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

describe('stars and watches', () => {
  it('stars (gitea-js and Octokit), counts, lists, and unstars; private repositories stay private', async () => {
    const pub = uniqueName('starry');
    const secret = uniqueName('secret-starry');
    for (const [name, isPrivate] of [[pub, false], [secret, true]] as const) {
      expect((await api.post('/user/repos', { basic: alice, body: { name, private: isPrivate } })).status).toBe(201);
    }
    const aliceToken = await createToken(suite, alice, ['write:repository']);
    const client = giteaApi(suite.baseUrl, { token: aliceToken, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
    expect((await client.user.userCurrentPutStar(alice.username, pub)).status).toBe(204);
    expect((await client.user.userCurrentPutStar(alice.username, pub)).status).toBe(204); // idempotent
    expect((await client.user.userCurrentPutStar(alice.username, secret)).status).toBe(204);
    expect((await client.user.userCurrentCheckStarring(alice.username, pub)).status).toBe(204);

    const bobToken = await createToken(suite, bob, ['write:repository']);
    const octokit = new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: bobToken });
    await expect(octokit.rest.activity.checkRepoIsStarredByAuthenticatedUser({ owner: alice.username, repo: pub })).rejects.toMatchObject({ status: 404 });
    expect((await octokit.rest.activity.starRepoForAuthenticatedUser({ owner: alice.username, repo: pub })).status).toBe(204);
    expect((await octokit.rest.activity.checkRepoIsStarredByAuthenticatedUser({ owner: alice.username, repo: pub })).status).toBe(204);
    // Bob cannot see, hence cannot star, alice's private repository.
    expectApiError(await api.put(`/user/starred/${alice.username}/${secret}`, { basic: bob }), 404);

    const repo = await api.get(`/repos/${alice.username}/${pub}`, { basic: alice });
    expect(repo.body.stars_count).toBe(2);
    const gazers = await api.get(`/repos/${alice.username}/${pub}/stargazers`);
    expect(gazers.body.map((u: { login: string }) => u.login)).toEqual([alice.username, bob.username]);
    expect(gazers.headers.get('x-total-count')).toBe('2');

    const own = await client.user.userCurrentListStarred();
    expect(own.data.map((r) => r.name)).toEqual([secret, pub]);
    const seenByBob = await api.get(`/users/${alice.username}/starred`, { basic: bob });
    expect(seenByBob.body.map((r: { name: string }) => r.name)).toEqual([pub]);
    expectApiError(await api.get(`/users/${uniqueName('ghost')}/starred`), 404);
    // `/repos/search?starredBy={user id}`: the same set, within what the searcher may see.
    const aliceId = (await api.get('/user', { basic: alice })).body.id as number;
    const mine = await client.repos.repoSearch({ starredBy: aliceId, limit: 50 });
    expect(mine.data.data?.map((r) => r.name).sort()).toEqual([pub, secret].sort());
    const bobs = await api.get(`/repos/search?starredBy=${aliceId}&limit=50`, { basic: bob });
    expect(bobs.body.data.map((r: { name: string }) => r.name)).toEqual([pub]);

    expect((await octokit.rest.activity.unstarRepoForAuthenticatedUser({ owner: alice.username, repo: pub })).status).toBe(204);
    expect((await api.get(`/repos/${alice.username}/${pub}`, { basic: alice })).body.stars_count).toBe(1);
    expectApiError(await api.get(`/user/starred/${alice.username}/${pub}`, { basic: bob }), 404);
  });

  it("watches: Gitea's WatchInfo, subscribers, /user/subscriptions, watchers_count", async () => {
    const name = uniqueName('watched');
    expect((await api.post('/user/repos', { basic: alice, body: { name } })).status).toBe(201);
    const base = `/repos/${alice.username}/${name}`;
    expectApiError(await api.get(`${base}/subscription`, { basic: bob }), 404);
    const put = await api.put(`${base}/subscription`, { basic: bob });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({
      subscribed: true,
      ignored: false,
      reason: null,
      url: `${suite.rootUrl}api/v1${base}/subscription`,
      repository_url: `${suite.rootUrl}api/v1${base}`,
    });
    expect((await api.get(`${base}/subscription`, { basic: bob })).body.subscribed).toBe(true);
    // alice watches what she creates (`[service] AUTO_WATCH_NEW_REPOS`, on by default as in Gitea).
    expect((await api.get(`${base}/subscribers`)).body.map((u: { login: string }) => u.login)).toEqual([alice.username, bob.username]);
    expect((await api.get('/user/subscriptions', { basic: bob })).body.map((r: { name: string }) => r.name)).toContain(name);
    expect((await api.get(base, { basic: alice })).body.watchers_count).toBe(2);
    expect((await api.delete(`${base}/subscription`, { basic: bob })).status).toBe(204);
    expectApiError(await api.get(`${base}/subscription`, { basic: bob }), 404);
    expect((await api.get(base, { basic: alice })).body.watchers_count).toBe(1);
    expect((await api.put(`${base}/subscription`)).status).toBe(401);
  });

  it("a deleted user's stars, watches, collaborations and assignments go with them; counters follow", async () => {
    const name = uniqueName('left-behind');
    expect((await api.post('/user/repos', { basic: alice, body: { name, auto_init: true } })).status).toBe(201);
    const base = `/repos/${alice.username}/${name}`;
    const carol = await createUser(suite, admin, uniqueName('carol'));
    expect((await api.put(`${base}/collaborators/${carol.username}`, { basic: alice, body: { permission: 'write' } })).status).toBe(204);
    expect((await api.put(`/user/starred/${alice.username}/${name}`, { basic: carol })).status).toBe(204);
    expect((await api.put(`${base}/subscription`, { basic: carol })).status).toBe(200);
    const issue = await api.post(`${base}/issues`, { basic: alice, body: { title: 'for carol', assignees: [carol.username] } });
    expect(issue.status, issue.text).toBe(201);
    const before = (await api.get(base, { basic: alice })).body;
    expect([before.stars_count, before.watchers_count]).toEqual([1, 2]); // alice watches what she created

    expect((await api.delete(`/admin/users/${carol.username}`, { basic: admin })).status).toBe(204);
    // repo-service cleans up on identity-service's durable deletion event.
    const after = await waitFor(async () => {
      const r = (await api.get(base, { basic: alice })).body;
      return r.stars_count === 0 ? r : null;
    }, "the deleted user's star to be removed");
    expect(after.watchers_count).toBe(1);
    expect((await api.get(`${base}/stargazers`)).body).toEqual([]);
    expect((await api.get(`${base}/subscribers`)).body.map((u: { login: string }) => u.login)).toEqual([alice.username]);
    expect((await api.get(`${base}/collaborators`, { basic: alice })).body).toEqual([]);
    expect((await api.get(`${base}/issues/${issue.body.number}`, { basic: alice })).body.assignees ?? []).toEqual([]);
  });
});

describe('GET /admin/users filters', () => {
  it("filters by keyword, login name, source, flags and two-factor; sorts as Gitea; refuses 'order'", async () => {
    const stem = uniqueName('filt');
    const [a, b, c] = await Promise.all(
      ['c', 'a', 'b'].map((suffix) => createUser(suite, admin, `${stem}-${suffix}`, { login_name: `ext-${stem}-${suffix}` })),
    );
    expect((await api.patch(`/admin/users/${b.username}`, { basic: admin, body: { prohibit_login: true, restricted: true } })).status).toBe(200);
    expect((await api.patch(`/admin/users/${c.username}`, { basic: admin, body: { admin: true, active: false } })).status).toBe(200);
    const names = async (query: string) => {
      const res = await api.get(`/admin/users?q=${stem}&${query}`, { basic: admin });
      expect(res.status, res.text).toBe(200);
      return res.body.map((u: { login: string }) => u.login);
    };
    // Alphabetical by default (Gitea's admin search).
    expect(await names('')).toEqual([b.username, c.username, a.username]);
    expect(await names('sort=reversealphabetically')).toEqual([a.username, c.username, b.username]);
    expect(await names('sort=oldest')).toHaveLength(3);
    expect(await names('is_prohibit_login=true')).toEqual([b.username]);
    expect(await names('is_restricted=1')).toEqual([b.username]);
    expect(await names('is_admin=true')).toEqual([c.username]);
    expect(await names('is_active=false')).toEqual([c.username]);
    expect(await names('is_2fa_enabled=true')).toEqual([]);
    expect(await names('is_2fa_enabled=false')).toHaveLength(3);
    expect(await names('visibility=public')).toHaveLength(3);
    expect(await names(`login_name=ext-${stem}-c`)).toEqual([a.username]);
    expect(await names('source_id=0')).toHaveLength(3);
    expect(await names('source_id=7')).toEqual([]);
    expectApiError(await api.get('/admin/users?sort=sideways', { basic: admin }), 422);
    expectApiError(await api.get('/admin/users?order=desc', { basic: admin }), 422, /order/);
  });
});

describe('e-mail addresses', () => {
  it('lists (gitea-js userListEmails), adds and deletes addresses, unique across accounts', async () => {
    const carol = await createUser(suite, admin, uniqueName('carol'));
    const token = await createToken(suite, carol, ['write:user']);
    const client = giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
    const primary = `${carol.username}@example.com`;
    expect((await client.user.userListEmails()).data).toEqual([
      { email: primary, verified: true, primary: true, user_id: expect.any(Number), username: carol.username },
    ]);
    const extra = `${carol.username}-work@example.com`;
    const added = await client.user.userAddEmail({ emails: [extra] });
    expect(added.status).toBe(201);
    expect(added.data).toEqual([expect.objectContaining({ email: extra, primary: false, verified: true, username: carol.username })]);
    expect((await client.user.userListEmails()).data.map((e) => e.email)).toEqual([primary, extra]);

    // Nobody else may use it, as an additional or as a primary address; nor may carol add another's.
    expectApiError(await api.post('/user/emails', { basic: bob, body: { emails: [extra.toUpperCase()] } }), 422, /has been used/);
    expectApiError(await api.patch(`/admin/users/${bob.username}`, { basic: admin, body: { email: extra } }), 422);
    expectApiError(await api.post('/user/emails', { basic: carol, body: { emails: [`${bob.username}@example.com`] } }), 422);
    expectApiError(await api.post('/user/emails', { basic: carol, body: { emails: ['not an address'] } }), 422, /not valid/);
    expectApiError(await api.post('/user/emails', { basic: carol, body: { emails: [] } }), 422);

    expectApiError(await api.delete('/user/emails', { basic: carol, body: { emails: [primary] } }), 422);
    expectApiError(await api.delete('/user/emails', { basic: carol, body: { emails: ['nobody@example.com'] } }), 404);
    expect((await client.user.userDeleteEmail({ emails: [extra] })).status).toBe(204);
    expect((await client.user.userListEmails()).data.map((e) => e.email)).toEqual([primary]);
    // Freed: bob may take it now.
    expect((await api.post('/user/emails', { basic: bob, body: { emails: [extra] } })).status).toBe(201);
    expect((await api.get('/user/emails')).status).toBe(401);
  });
});
