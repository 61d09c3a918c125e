/**
 * Actions runner management (Gitea 1.24's API) through the gateway, at the admin, user, organization and repository
 * levels: Gitea's own four test cases (`TestAPIActionsRunner`: AdminRunner, UserRunner, OwnerRunner, RepoRunner)
 * with their permission and scope expectations, registration token reuse and reset, each level's list scope, soft
 * delete, online/offline and busy from the runner's reports, GitHub's label routes, Octokit where GitHub has the same
 * route shape, and the deletion event. Runners are inserted as the protocol's Register writes them
 * (test/support/runners.ts, with the service's own token hash); their reports are set in the database.
 */
import { Octokit } from '@octokit/rest';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunnersEvents } from '@cairn/contracts';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { activeTokenHashes, insertRunner } from '../support/runners.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { hashRunnerToken } from '../../apps/runners-service/src/runners/runner-token.js';

let suite: TestSuite;
let api: HttpClient;
let db: pg.Client;
let admin: Account;
/** Owns the organization and the repositories. */
let alice: Account;
/** A member (not owner) of the organization, and an admin collaborator of the repository. */
let bob: Account;
let org: string;
let repo: string;
let ids: { alice: number; org: number; repo: number; otherRepo: number };
/** Fixtures like Gitea's models/fixtures/action_runner.yml. */
const runner: Record<'user' | 'org' | 'orgEphemeral' | 'repo' | 'orgRepo' | 'global', number> = {
  user: 0, org: 0, orgEphemeral: 0, repo: 0, orgRepo: 0, global: 0,
};
const LABELS = ['runner_to_be_deleted', 'linux'];
const expectedLabels = LABELS.map((name, id) => ({ id, name, type: 'custom' }));

beforeAll(async () => {
  suite = await sharedTestSuite();
  api = http(suite);
  db = new pg.Client({ connectionString: suite.databaseUrl });
  await db.connect();
  admin = await suite.createAdmin();
  alice = await createUser(suite, admin, uniqueName('alice'));
  bob = await createUser(suite, admin, uniqueName('bob'));
  org = uniqueName('org');
  expect((await api.post('/orgs', { basic: alice, body: { username: org } })).status).toBe(201);
  const team = await api.post(`/orgs/${org}/teams`, { basic: alice, body: { name: 'devs', permission: 'admin', units: ['repo.code'] } });
  expect(team.status).toBe(201);
  expect((await api.put(`/teams/${team.body.id}/members/${bob.username}`, { basic: alice })).status).toBe(204);
  repo = uniqueName('demo');
  const created = await api.post('/user/repos', { basic: alice, body: { name: repo } });
  expect(created.status).toBe(201);
  expect(
    (await api.put(`/repos/${alice.username}/${repo}/collaborators/${bob.username}`, { basic: alice, body: { permission: 'admin' } })).status,
  ).toBe(204);
  const orgRepo = await api.post(`/orgs/${org}/repos`, { basic: alice, body: { name: uniqueName('org-repo') } });
  expect(orgRepo.status).toBe(201);
  ids = {
    alice: (await api.get('/user', { basic: alice })).body.id,
    org: (await api.get(`/orgs/${org}`, { basic: alice })).body.id,
    repo: created.body.id,
    otherRepo: orgRepo.body.id,
  };
  const online = new Date();
  runner.user = await insertRunner(db, { name: 'runner_to_be_deleted-user', ownerId: ids.alice, labels: LABELS, lastOnline: online });
  runner.org = await insertRunner(db, { name: 'runner_to_be_deleted-org', ownerId: ids.org, labels: LABELS, lastOnline: online });
  runner.orgEphemeral = await insertRunner(db, {
    name: 'runner_to_be_deleted-org-ephemeral', ownerId: ids.org, labels: LABELS, ephemeral: true,
  });
  runner.repo = await insertRunner(db, { name: 'runner_to_be_deleted-repo1', repoId: ids.repo, labels: LABELS });
  runner.orgRepo = await insertRunner(db, { name: 'runner-of-an-org-repo', repoId: ids.otherRepo, labels: LABELS });
  runner.global = await insertRunner(db, { name: 'runner_to_be_deleted', labels: LABELS });
}, 300_000);

afterAll(async () => {
  await db?.end();
  await suite?.stop();
});

describe("Gitea's TestAPIActionsRunner", () => {
  it('UserRunner: the token, exactly the own runner, get, delete 204, then 404', async () => {
    const token = await createToken(suite, alice, ['write:user']);
    const t = await api.post('/user/actions/runners/registration-token', { token });
    expect(t.status).toBe(200);
    expect(t.body.token).toBeTruthy();

    const list = await api.get('/user/actions/runners', { token });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBeNull();
    expect(list.body.total_count).toBe(1);
    expect(list.body.runners).toHaveLength(1);
    expect(list.body.runners[0]).toMatchObject({ id: runner.user, name: 'runner_to_be_deleted-user', ephemeral: false, labels: expectedLabels });

    const got = await api.get(`/user/actions/runners/${runner.user}`, { token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(list.body.runners[0]);
    // A read token may not delete; another category may not read.
    expect((await api.delete(`/user/actions/runners/${runner.user}`, { token: await createToken(suite, alice, ['read:user']) })).status).toBe(403);
    expect((await api.get('/user/actions/runners', { token: await createToken(suite, alice, ['write:repository']) })).status).toBe(403);
    // Another user's runners are not the caller's.
    const bobToken = await createToken(suite, bob, ['write:user']);
    expect((await api.get(`/user/actions/runners/${runner.user}`, { token: bobToken })).status).toBe(404);
    expect((await api.get('/user/actions/runners', { token: bobToken })).body).toEqual({ runners: [], total_count: 0 });

    expect((await api.delete(`/user/actions/runners/${runner.user}`, { token })).status).toBe(204);
    const gone = await api.get(`/user/actions/runners/${runner.user}`, { token });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Runner not found');
    expect((await api.get('/user/actions/runners')).status).toBe(401);
  });

  it('OwnerRunner: org owners only (members 403 even for reads), not the repositories\' runners, wrong scope 403', async () => {
    const base = `/orgs/${org}/actions/runners`;
    const read = await createToken(suite, alice, ['read:organization']);
    const got = await api.get(`${base}/${runner.org}`, { token: read });
    expect(got.status).toBe(200);
    expect(got.body.name).toBe('runner_to_be_deleted-org');

    const token = await createToken(suite, alice, ['write:organization']);
    expect((await api.post(`${base}/registration-token`, { token })).status).toBe(200);
    const list = await api.get(base, { token });
    expect(list.status).toBe(200);
    expect(list.body.runners.map((r: { id: number }) => r.id).sort()).toEqual([runner.org, runner.orgEphemeral].sort());
    expect(list.body.runners.find((r: { id: number }) => r.id === runner.orgEphemeral).ephemeral).toBe(true);

    expect((await api.delete(`${base}/${runner.org}`, { token: read })).status).toBe(403);
    expect((await api.get(`${base}/${runner.org}`, { token: await createToken(suite, alice, ['read:repository']) })).status).toBe(403);
    // The global runner is not the organization's.
    expect((await api.get(`${base}/${runner.global}`, { token })).status).toBe(404);
    expect((await api.delete(`${base}/${runner.global}`, { token })).status).toBe(404);
    // Members and outsiders: 403, anonymous 401.
    const bobToken = await createToken(suite, bob, ['write:organization']);
    for (const [method, p] of [['GET', base], ['GET', `${base}/${runner.org}`], ['POST', `${base}/registration-token`], ['DELETE', `${base}/${runner.org}`]]) {
      const res = await api.request(method, p, { token: bobToken });
      expect(res.status, `bob ${method} ${p}`).toBe(403);
      expect(res.body.message).toBe('Must be an organization owner');
      expect((await api.request(method, p)).status, `anonymous ${method} ${p}`).toBe(401);
    }

    expect((await api.delete(`${base}/${runner.org}`, { token })).status).toBe(204);
    expect((await api.get(`${base}/${runner.org}`, { token })).status).toBe(404);
  });

  it('RepoRunner: the repository owner only (admin collaborators 403), exactly its runner, wrong scope 403, unknown ids 404', async () => {
    const base = `/repos/${alice.username}/${repo}/actions/runners`;
    const read = await createToken(suite, alice, ['read:repository']);
    expect((await api.get(`${base}/${runner.repo}`, { token: read })).status).toBe(200);

    const token = await createToken(suite, alice, ['write:repository']);
    expect((await api.post(`${base}/registration-token`, { token })).status).toBe(200);
    const list = await api.get(base, { token });
    expect(list.status).toBe(200);
    expect(list.body.total_count).toBe(1);
    expect(list.body.runners.map((r: { id: number }) => r.id)).toEqual([runner.repo]);
    const got = await api.get(`${base}/${runner.repo}`, { token });
    expect(got.body).toMatchObject({ id: runner.repo, name: 'runner_to_be_deleted-repo1', labels: expectedLabels });

    expect((await api.delete(`${base}/${runner.repo}`, { token: read })).status).toBe(403);
    expect((await api.get(`${base}/${runner.repo}`, { token: await createToken(suite, alice, ['write:organization']) })).status).toBe(403);
    expect((await api.get(`${base}/${runner.global}`, { token })).status).toBe(404);
    expect((await api.delete(`${base}/${runner.global}`, { token })).status).toBe(404);
    expect((await api.delete(`${base}/${runner.orgRepo}`, { token })).status).toBe(404);
    expect((await api.delete(`${base}/4384797347934`, { token })).status).toBe(404);
    const nonNumeric = await api.get(`${base}/not-a-number`, { token });
    expect(nonNumeric.status).toBe(404);
    expect(nonNumeric.body.message).toBe('Runner not found');

    const bobToken = await createToken(suite, bob, ['write:repository']);
    for (const [method, p] of [['GET', base], ['GET', `${base}/${runner.repo}`], ['POST', `${base}/registration-token`]]) {
      const res = await api.request(method, p, { token: bobToken });
      expect(res.status, `bob ${method} ${p}`).toBe(403);
      expect(res.body.message).toBe('user should be the owner of the repo');
      expect((await api.request(method, p)).status, `anonymous ${method} ${p}`).toBe(401);
    }

    expect((await api.delete(`${base}/${runner.repo}`, { token })).status).toBe(204);
    expect((await api.get(`${base}/${runner.repo}`, { token })).status).toBe(404);
  });

  it('AdminRunner: site admins see every runner (global, user, org and repo); get each, delete each, then 404', async () => {
    const aliceAdminScoped = await createToken(suite, alice, ['write:admin']);
    expect((await api.get('/admin/actions/runners', { token: aliceAdminScoped })).status).toBe(403);
    const token = await createToken(suite, admin, ['write:admin']);
    expect((await api.get('/admin/actions/runners', { token: await createToken(suite, admin, ['write:repository']) })).status).toBe(403);
    const t = await api.post('/admin/actions/runners/registration-token', { token });
    expect(t.status).toBe(200);
    expect(t.body.token).toBeTruthy();

    const list = await api.get('/admin/actions/runners?limit=50', { token });
    expect(list.status).toBe(200);
    // The instance is shared with other test files: judge (and delete) only this file's runners.
    const ours = new Set(Object.values(runner));
    const mine = list.body.runners.filter((r: { id: number }) => ours.has(r.id));
    // The ones deleted by the cases above are gone; the others of every level are here.
    expect(mine.map((r: { id: number }) => r.id).sort()).toEqual([runner.orgEphemeral, runner.orgRepo, runner.global].sort());
    expect(list.body.total_count).toBeGreaterThanOrEqual(list.body.runners.length);
    const global = list.body.runners.find((r: { id: number }) => r.id === runner.global);
    expect(global).toMatchObject({ name: 'runner_to_be_deleted', ephemeral: false, labels: expectedLabels });

    for (const r of mine) {
      const got = await api.get(`/admin/actions/runners/${r.id}`, { token });
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ id: r.id, name: r.name, ephemeral: r.ephemeral, labels: r.labels });
      expect((await api.delete(`/admin/actions/runners/${r.id}`, { token })).status).toBe(204);
      expect((await api.get(`/admin/actions/runners/${r.id}`, { token })).status).toBe(404);
    }
    expect((await api.delete(`/admin/actions/runners/${runner.global}`, { token })).status).toBe(404);
  });
});

describe('registration tokens', () => {
  const levels = () => [
    { post: '/admin/actions/runners/registration-token', legacy: '/admin/runners/registration-token', user: admin, scope: 'write:admin', owner: 0, repo: 0 },
    { post: '/user/actions/runners/registration-token', legacy: '/user/actions/runners/registration-token', user: alice, scope: 'write:user', owner: ids.alice, repo: 0 },
    { post: `/orgs/${org}/actions/runners/registration-token`, legacy: `/orgs/${org}/actions/runners/registration-token`, user: alice, scope: 'write:organization', owner: ids.org, repo: 0 },
    {
      post: `/repos/${alice.username}/${repo}/actions/runners/registration-token`,
      legacy: `/repos/${alice.username}/${repo}/actions/runners/registration-token`,
      user: alice, scope: 'write:repository', owner: 0, repo: ids.repo,
    },
  ];

  it('POST and the deprecated GET answer the active token unchanged; reset answers a new one and deactivates the older', async () => {
    const seen = new Set<string>();
    for (const level of levels()) {
      const token = await createToken(suite, level.user, [level.scope]);
      const first = await api.post(level.post, { token });
      expect(first.status, level.post).toBe(200);
      expect(Object.keys(first.body)).toEqual(['token']);
      expect((await api.post(level.post, { token })).body.token).toBe(first.body.token);
      expect((await api.get(level.legacy, { token })).body.token).toBe(first.body.token);
      seen.add(first.body.token);

      const reset = await api.post(`${level.post}/reset`, { token });
      expect(reset.status, `${level.post}/reset`).toBe(200);
      expect(reset.body.token).not.toBe(first.body.token);
      expect((await api.post(level.post, { token })).body.token).toBe(reset.body.token);
      // What the runner protocol looks up: only the new token is active.
      expect(await activeTokenHashes(db, level.owner, level.repo)).toEqual([hashRunnerToken(reset.body.token)]);
    }
    expect(seen.size).toBe(4);
  });

  it('the legacy GET needs only a read token; POST and reset need write', async () => {
    const read = await createToken(suite, alice, ['read:user']);
    expect((await api.get('/user/actions/runners/registration-token', { token: read })).status).toBe(200);
    expect((await api.post('/user/actions/runners/registration-token', { token: read })).status).toBe(403);
    expect((await api.post('/user/actions/runners/registration-token/reset', { token: read })).status).toBe(403);
    // There is no GET at the admin's actions path (Gitea's legacy admin path is /admin/runners/registration-token).
    const adminToken = await createToken(suite, admin, ['write:admin']);
    expect((await api.get('/admin/actions/runners/registration-token', { token: adminToken })).status).toBe(404);
  });
});

describe('status, busy and last_online', () => {
  it('online while last_online is within RUNNER_OFFLINE_TIME (1m), busy while last_active is recent, offline after', async () => {
    const token = await createToken(suite, admin, ['read:admin']);
    const id = await insertRunner(db, { name: uniqueName('live'), lastOnline: new Date(), lastActive: new Date() });
    const busy = await api.get(`/admin/actions/runners/${id}`, { token });
    expect(busy.body).toMatchObject({ status: 'online', busy: true });
    expect(Math.abs(Date.parse(busy.body.last_online) - Date.now())).toBeLessThan(60_000);

    await db.query("UPDATE runners.runners SET last_active = now() - interval '30 seconds' WHERE id = $1", [id]);
    expect((await api.get(`/admin/actions/runners/${id}`, { token })).body).toMatchObject({ status: 'online', busy: false });

    await db.query("UPDATE runners.runners SET last_online = now() - interval '61 seconds', last_active = now() WHERE id = $1", [id]);
    expect((await api.get(`/admin/actions/runners/${id}`, { token })).body).toMatchObject({ status: 'offline', busy: false });

    const never = await insertRunner(db, { name: uniqueName('never') });
    expect((await api.get(`/admin/actions/runners/${never}`, { token })).body).toMatchObject({ status: 'offline', last_online: null });
  });

  it('lists in last_online order and pages with page/limit, total_count over all pages', async () => {
    const owner = ids.org;
    const t0 = Date.now();
    const made = [];
    for (let i = 0; i < 3; i++) {
      made.push(await insertRunner(db, { name: `paged-${i}`, ownerId: owner, lastOnline: new Date(t0 - i * 1000) }));
    }
    const token = await createToken(suite, alice, ['read:organization']);
    const base = `/orgs/${org}/actions/runners`;
    const p1 = await api.get(`${base}?limit=2&page=1`, { token });
    const p2 = await api.get(`${base}?limit=2&page=2`, { token });
    expect(p1.body.total_count).toBe(3);
    expect([...p1.body.runners, ...p2.body.runners].map((r: { id: number }) => r.id)).toEqual(made);
  });
});

describe('labels and Octokit', () => {
  it("GitHub's label routes: list, add, set, remove one (404 when absent), remove all; bad labels 422", async () => {
    const id = await insertRunner(db, { name: uniqueName('labelled'), repoId: ids.repo, labels: ['linux'] });
    const token = await createToken(suite, alice, ['write:repository']);
    const base = `/repos/${alice.username}/${repo}/actions/runners/${id}/labels`;
    expect((await api.get(base, { token })).body).toEqual({ total_count: 1, labels: [{ id: 0, name: 'linux', type: 'custom' }] });
    const added = await api.post(base, { token, body: { labels: ['gpu', 'linux'] } });
    expect(added.status).toBe(200);
    expect(added.body.labels.map((l: { name: string }) => l.name)).toEqual(['linux', 'gpu']);
    const set = await api.put(base, { token, body: { labels: ['ubuntu-latest:docker://node:20', 'arm64'] } });
    expect(set.status).toBe(200);
    expect(set.body.total_count).toBe(2);
    expect((await api.get(`/repos/${alice.username}/${repo}/actions/runners/${id}`, { token })).body.labels).toEqual([
      { id: 0, name: 'ubuntu-latest:docker://node:20', type: 'custom' },
      { id: 1, name: 'arm64', type: 'custom' },
    ]);
    expect((await api.delete(`${base}/arm64`, { token })).body.total_count).toBe(1);
    expect((await api.delete(`${base}/arm64`, { token })).status).toBe(404);
    expect((await api.delete(base, { token })).body).toEqual({ total_count: 0, labels: [] });
    expect((await api.put(base, { token, body: { labels: ['a b'] } })).status).toBe(422);
    expect((await api.put(base, { token, body: {} })).status).toBe(422);
    expect((await api.post(base, { token: await createToken(suite, alice, ['read:repository']), body: { labels: ['x'] } })).status).toBe(403);
    expect((await api.get(`/repos/${alice.username}/${repo}/actions/runners/${id}/labels`, { token: await createToken(suite, bob, ['write:repository']) })).status).toBe(403);
  });

  it("Octokit's self-hosted runner calls for a repository work against the same routes", async () => {
    const token = await createToken(suite, alice, ['write:repository']);
    const octokit = new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: token });
    const owner = alice.username;
    const id = await insertRunner(db, { name: uniqueName('octo'), repoId: ids.repo, labels: ['self-hosted'], lastOnline: new Date() });

    const reg = await octokit.rest.actions.createRegistrationTokenForRepo({ owner, repo });
    expect(reg.data.token).toMatch(/^[0-9a-f]{40}$/);
    const list = await octokit.rest.actions.listSelfHostedRunnersForRepo({ owner, repo, per_page: 50 });
    expect(list.data.total_count).toBe(list.data.runners.length);
    const listed = list.data.runners.find((r) => r.id === id);
    expect(listed).toMatchObject({ status: 'online', busy: false, labels: [{ id: 0, name: 'self-hosted', type: 'custom' }] });
    const one = await octokit.rest.actions.getSelfHostedRunnerForRepo({ owner, repo, runner_id: id });
    expect(one.data.name).toBe(listed!.name);

    const labels = await octokit.rest.actions.addCustomLabelsToSelfHostedRunnerForRepo({ owner, repo, runner_id: id, labels: ['gpu'] });
    expect(labels.data.labels.map((l) => l.name)).toEqual(['self-hosted', 'gpu']);
    await octokit.rest.actions.setCustomLabelsForSelfHostedRunnerForRepo({ owner, repo, runner_id: id, labels: ['x64'] });
    expect((await octokit.rest.actions.listLabelsForSelfHostedRunnerForRepo({ owner, repo, runner_id: id })).data.total_count).toBe(1);
    await octokit.rest.actions.removeCustomLabelFromSelfHostedRunnerForRepo({ owner, repo, runner_id: id, name: 'x64' });
    await octokit.rest.actions.removeAllCustomLabelsFromSelfHostedRunnerForRepo({ owner, repo, runner_id: id });

    expect((await octokit.rest.actions.deleteSelfHostedRunnerFromRepo({ owner, repo, runner_id: id })).status).toBe(204);
    await expect(octokit.rest.actions.getSelfHostedRunnerForRepo({ owner, repo, runner_id: id })).rejects.toMatchObject({ status: 404 });
  });
});

describe('events', () => {
  it('a deletion is published as runners.evt.runner.deleted (through the outbox), with the runner and who deleted it', async () => {
    const name = uniqueName('audited');
    const id = await insertRunner(db, { name, ownerId: ids.alice });
    const token = await createToken(suite, alice, ['write:user']);
    expect((await api.delete(`/user/actions/runners/${id}`, { token })).status).toBe(204);
    const row = async () =>
      (await db.query(
        "SELECT payload, published_at FROM runners.outbox_events WHERE subject = $1 AND payload->'data'->'runner'->>'name' = $2",
        [RunnersEvents.runnerDeleted, name],
      )).rows[0];
    await waitFor(async () => Boolean((await row())?.published_at), 'the deletion event published');
    expect((await row()).payload.data).toMatchObject({ runner: { id, ownerId: ids.alice, repoId: 0, ephemeral: false }, actorId: ids.alice });
  });
});
