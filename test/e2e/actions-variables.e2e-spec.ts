/**
 * Actions variables and secrets (Gitea 1.25's API) through the gateway, at the user, organization and repository
 * levels: status codes (201/204/409/404/400/422), Gitea's name rules, who may call (token scopes, org owners only,
 * repository owners only, site admins), secrets never answered nor logged, and the removal of a deleted repository's
 * or user's variables and secrets by the deletion events.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Octokit } from '@octokit/rest';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createToken, createUser, http, uniqueName, type Account, type HttpClient, type HttpResponse, type RequestOptions,
} from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';

let suite: TestSuite;
let api: HttpClient;
let db: pg.Client;
let admin: Account;
/** Owns the organization and the repository. */
let alice: Account;
/** A member (not owner) of the organization and an admin collaborator of the repository. */
let bob: Account;
/** Nobody in particular. */
let carol: Account;
let org: string;
let repo: string;
let ids: { alice: number; org: number; repo: number };
/** Every response body of this file, to show that no secret value is ever answered. */
const answered: string[] = [];

async function call(method: string, p: string, options: RequestOptions = {}): Promise<HttpResponse> {
  const res = await api.request(method, p, options);
  answered.push(res.text);
  return res;
}

interface Level {
  name: 'user' | 'org' | 'repo';
  base: string;
  /** The token category the level needs. */
  category: 'user' | 'organization' | 'repository';
  ownerId: () => number;
  repoId: () => number;
}

const levels = (): Level[] => [
  { name: 'user', base: '/user/actions', category: 'user', ownerId: () => ids.alice, repoId: () => 0 },
  { name: 'org', base: `/orgs/${org}/actions`, category: 'organization', ownerId: () => ids.org, repoId: () => 0 },
  {
    name: 'repo',
    base: `/repos/${alice.username}/${repo}/actions`,
    category: 'repository',
    ownerId: () => 0,
    repoId: () => ids.repo,
  },
];

beforeAll(async () => {
  suite = await sharedTestSuite();
  api = http(suite);
  db = new pg.Client({ connectionString: suite.databaseUrl });
  await db.connect();
  admin = await suite.createAdmin();
  alice = await createUser(suite, admin, uniqueName('alice'));
  bob = await createUser(suite, admin, uniqueName('bob'));
  carol = await createUser(suite, admin, uniqueName('carol'));
  org = uniqueName('org');
  expect((await api.post('/orgs', { basic: alice, body: { username: org } })).status).toBe(201);
  const team = await api.post(`/orgs/${org}/teams`, {
    basic: alice,
    body: { name: 'devs', permission: 'admin', units: ['repo.code'] },
  });
  expect(team.status).toBe(201);
  expect((await api.put(`/teams/${team.body.id}/members/${bob.username}`, { basic: alice })).status).toBe(204);
  repo = uniqueName('demo');
  const created = await api.post('/user/repos', { basic: alice, body: { name: repo } });
  expect(created.status).toBe(201);
  expect(
    (await api.put(`/repos/${alice.username}/${repo}/collaborators/${bob.username}`, { basic: alice, body: { permission: 'admin' } }))
      .status,
  ).toBe(204);
  ids = {
    alice: (await api.get('/user', { basic: alice })).body.id,
    org: (await api.get(`/orgs/${org}`, { basic: alice })).body.id,
    repo: created.body.id,
  };
}, 300_000);

afterAll(async () => {
  await db?.end();
  await suite?.stop();
});

describe('variables', () => {
  it('create 201, 409 for a name taken in any case, get, rename with PUT 204, delete 204, 404s — at every level', async () => {
    for (const level of levels()) {
      const token = await createToken(suite, alice, [`write:${level.category}`]);
      const v = (name: string) => `${level.base}/variables/${name}`;
      const ctx = level.name;

      const created = await call('POST', v('test_var'), { token, body: { value: 'one\r\ntwo', description: 'first' } });
      expect(created.status, `${ctx}: ${created.text}`).toBe(201);
      expect(created.text, ctx).toBe('');
      expect((await call('POST', v('_'), { token, body: { value: 'underscore' } })).status, ctx).toBe(201);

      const taken = await call('POST', v('TEST_VAR'), { token, body: { value: 'again' } });
      expect(taken.status, ctx).toBe(409);
      expect(taken.body.message, ctx).toMatch(/already exists/);

      const got = await call('GET', v('Test_Var'), { token });
      expect(got.status, ctx).toBe(200);
      expect(got.body, ctx).toEqual({
        owner_id: level.ownerId(),
        repo_id: level.repoId(),
        name: 'TEST_VAR',
        data: 'one\ntwo',
        description: 'first',
      });

      const pages = [];
      for (const page of [1, 2]) {
        const list = await call('GET', `${level.base}/variables?limit=1&page=${page}`, { token });
        expect(list.status, ctx).toBe(200);
        expect(list.headers.get('x-total-count'), ctx).toBe('2');
        expect(list.body, ctx).toHaveLength(1);
        pages.push(list.body[0].name);
      }
      expect(pages.sort(), ctx).toEqual(['TEST_VAR', '_']);

      const renamed = await call('PUT', v('test_var'), { token, body: { name: 'renamed_var', value: 'three' } });
      expect(renamed.status, `${ctx}: ${renamed.text}`).toBe(204);
      expect((await call('GET', v('TEST_VAR'), { token })).status, ctx).toBe(404);
      expect((await call('GET', v('RENAMED_VAR'), { token })).body, ctx).toMatchObject({ name: 'RENAMED_VAR', data: 'three', description: '' });
      expect((await call('PUT', v('RENAMED_VAR'), { token, body: { name: '_', value: 'x' } })).status, ctx).toBe(409);
      expect((await call('PUT', v('RENAMED_VAR'), { token, body: { name: 'gitea_x', value: 'x' } })).status, ctx).toBe(400);
      expect((await call('PUT', v('NO_SUCH_VAR'), { token, body: { value: 'x' } })).status, ctx).toBe(404);

      expect((await call('DELETE', v('renamed_var'), { token })).status, ctx).toBe(204);
      expect((await call('DELETE', v('renamed_var'), { token })).status, ctx).toBe(404);
      expect((await call('GET', v('renamed_var'), { token })).status, ctx).toBe(404);
      expect((await call('DELETE', v('_'), { token })).status, ctx).toBe(204);
    }
  });

  it("refuses Gitea's invalid names with 400 naming the rule, a missing value with 422, too long a value with 400", async () => {
    const token = await createToken(suite, alice, ['write:repository']);
    const base = `/repos/${alice.username}/${repo}/actions/variables`;
    const rules: [string, RegExp][] = [
      ['-', /letters, digits and underscores/],
      ['123var', /must not start with a digit/],
      ['var%40test', /letters, digits and underscores/],
      ['ci', /CI is reserved/],
      ['github_var', /GITHUB_ or GITEA_/],
      ['Gitea_Var', /GITHUB_ or GITEA_/],
    ];
    for (const [name, rule] of rules) {
      const res = await call('POST', `${base}/${name}`, { token, body: { value: 'x' } });
      expect(res.status, name).toBe(400);
      expect(res.body.message, name).toMatch(rule);
    }
    expect((await call('POST', `${base}/NO_VALUE`, { token, body: { description: 'd' } })).status).toBe(422);
    expect((await call('POST', `${base}/EMPTY_VALUE`, { token, body: { value: '' } })).status).toBe(422);
    const tooLong = await call('POST', `${base}/LONG_VAR`, { token, body: { value: 'é'.repeat(65_537) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toMatch(/data too long/);
    // 65,536 characters are fine (Gitea counts characters, not bytes), and a long description is cut, not refused.
    const fits = await call('POST', `${base}/LONG_VAR`, { token, body: { value: 'é'.repeat(65_536), description: 'd'.repeat(5_000) } });
    expect(fits.status, fits.text).toBe(201);
    expect((await call('GET', `${base}/LONG_VAR`, { token })).body.description).toHaveLength(4_096);
    expect((await call('DELETE', `${base}/LONG_VAR`, { token })).status).toBe(204);
  });

  it('Octokit reads and deletes repository and organization variables (the routes GitHub shares)', async () => {
    const token = await createToken(suite, alice, ['write:repository', 'write:organization']);
    const octokit = new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: token });
    expect((await call('POST', `/repos/${alice.username}/${repo}/actions/variables/OCTO`, { token, body: { value: 'r' } })).status).toBe(201);
    expect((await call('POST', `/orgs/${org}/actions/variables/OCTO`, { token, body: { value: 'o' } })).status).toBe(201);

    const repoVar = await octokit.rest.actions.getRepoVariable({ owner: alice.username, repo, name: 'octo' });
    expect(repoVar.status).toBe(200);
    expect(repoVar.data).toMatchObject({ name: 'OCTO', data: 'r' });
    const orgVar = await octokit.rest.actions.getOrgVariable({ org, name: 'OCTO' });
    expect(orgVar.data).toMatchObject({ name: 'OCTO', data: 'o', owner_id: ids.org, repo_id: 0 });

    expect((await octokit.rest.actions.deleteRepoVariable({ owner: alice.username, repo, name: 'OCTO' })).status).toBe(204);
    expect((await octokit.rest.actions.deleteOrgVariable({ org, name: 'OCTO' })).status).toBe(204);
    await expect(octokit.rest.actions.getRepoVariable({ owner: alice.username, repo, name: 'OCTO' })).rejects.toMatchObject({ status: 404 });
    await expect(octokit.rest.actions.deleteOrgVariable({ org, name: 'OCTO' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('who may call', () => {
  it('repository level: the owner and site admins; admin collaborators and readers 403; hidden repositories 404', async () => {
    const base = `/repos/${alice.username}/${repo}/actions`;
    const bobToken = await createToken(suite, bob, ['write:repository']);
    const carolToken = await createToken(suite, carol, ['write:repository']);
    for (const [method, p] of [['GET', `${base}/variables`], ['POST', `${base}/variables/NOPE`], ['GET', `${base}/secrets`], ['PUT', `${base}/secrets/NOPE`]]) {
      const body = method === 'POST' ? { value: 'x' } : method === 'PUT' ? { data: 'x' } : undefined;
      const asBob = await call(method, p, { token: bobToken, body });
      expect(asBob.status, `bob ${method} ${p}`).toBe(403);
      expect(asBob.body.message).toBe('user should be the owner of the repo');
      expect((await call(method, p, { token: carolToken, body })).status, `carol ${method} ${p}`).toBe(403);
      expect((await call(method, p, { body })).status, `anonymous ${method} ${p}`).toBe(401);
    }
    const priv = uniqueName('private');
    expect((await api.post('/user/repos', { basic: alice, body: { name: priv, private: true } })).status).toBe(201);
    expect((await call('GET', `/repos/${alice.username}/${priv}/actions/variables`, { token: carolToken })).status).toBe(404);

    const adminToken = await createToken(suite, admin, ['write:repository']);
    expect((await call('POST', `${base}/variables/BY_ADMIN`, { token: adminToken, body: { value: 'a' } })).status).toBe(201);
    expect((await call('DELETE', `${base}/variables/BY_ADMIN`, { token: adminToken })).status).toBe(204);
  });

  it('organization level: owners and site admins; members 403 even for reads; unknown organizations 404', async () => {
    const base = `/orgs/${org}/actions`;
    const bobToken = await createToken(suite, bob, ['write:organization']);
    const carolToken = await createToken(suite, carol, ['write:organization']);
    for (const [method, p] of [['GET', `${base}/variables`], ['GET', `${base}/variables/X`], ['DELETE', `${base}/secrets/X`], ['GET', `${base}/secrets`]]) {
      const asBob = await call(method, p, { token: bobToken });
      expect(asBob.status, `bob ${method} ${p}`).toBe(403);
      expect(asBob.body.message).toBe('Must be an organization owner');
      expect((await call(method, p, { token: carolToken })).status, `carol ${method} ${p}`).toBe(403);
    }
    expect((await call('GET', `/orgs/${uniqueName('nope')}/actions/variables`, { token: bobToken })).status).toBe(404);
    const adminToken = await createToken(suite, admin, ['read:organization']);
    expect((await call('GET', `${base}/variables`, { token: adminToken })).status).toBe(200);
  });

  it("token scopes: read for GET, write otherwise, and the level's own category", async () => {
    const cases: [string, string, string, unknown, number][] = [
      ['read:repository', 'GET', `/repos/{r}/actions/variables`, undefined, 200],
      ['read:repository', 'POST', `/repos/{r}/actions/variables/SCOPED`, { value: 'x' }, 403],
      ['read:repository', 'PUT', `/repos/{r}/actions/secrets/SCOPED`, { data: 'x' }, 403],
      ['write:organization', 'GET', `/repos/{r}/actions/variables`, undefined, 403],
      ['read:organization', 'GET', `/orgs/{o}/actions/variables`, undefined, 200],
      ['read:organization', 'DELETE', `/orgs/{o}/actions/variables/X`, undefined, 403],
      ['write:repository', 'GET', `/orgs/{o}/actions/secrets`, undefined, 403],
      ['read:user', 'GET', '/user/actions/variables', undefined, 200],
      ['read:user', 'POST', '/user/actions/variables/SCOPED', { value: 'x' }, 403],
      ['write:repository', 'GET', '/user/actions/variables', undefined, 403],
      ['write:user', 'POST', '/user/actions/variables/SCOPED', { value: 'x' }, 201],
      ['write:user', 'DELETE', '/user/actions/variables/SCOPED', undefined, 204],
    ];
    for (const [scope, method, template, body, status] of cases) {
      const token = await createToken(suite, alice, [scope]);
      const p = template.replace('{r}', `${alice.username}/${repo}`).replace('{o}', org);
      expect((await call(method, p, { token, body })).status, `${scope} ${method} ${p}`).toBe(status);
    }
  });

  it("user level: each user's own; another user's variables are not visible", async () => {
    const aliceToken = await createToken(suite, alice, ['write:user']);
    const bobToken = await createToken(suite, bob, ['write:user']);
    expect((await call('POST', '/user/actions/variables/MINE', { token: aliceToken, body: { value: 'alice' } })).status).toBe(201);
    expect((await call('GET', '/user/actions/variables/MINE', { token: bobToken })).status).toBe(404);
    expect((await call('GET', '/user/actions/variables', { token: bobToken })).body).toEqual([]);
    expect((await call('POST', '/user/actions/variables/MINE', { token: bobToken, body: { value: 'bob' } })).status).toBe(201);
    expect((await call('GET', '/user/actions/variables/MINE', { token: aliceToken })).body.data).toBe('alice');
  });
});

describe('secrets', () => {
  const VALUE = `s3cret-${uniqueName('value')}`;

  it('PUT 201 then 204, listed without values at every level, delete 204 then 404, sealed at rest', async () => {
    for (const level of levels()) {
      const token = await createToken(suite, alice, [`write:${level.category}`]);
      const s = (name: string) => `${level.base}/secrets/${name}`;
      const ctx = level.name;
      const created = await call('PUT', s('deploy_key'), { token, body: { data: VALUE, description: 'for deploys' } });
      expect(created.status, `${ctx}: ${created.text}`).toBe(201);
      expect((await call('PUT', s('DEPLOY_KEY'), { token, body: { data: `${VALUE}-2` } })).status, ctx).toBe(204);
      expect((await call('PUT', s('OTHER'), { token, body: { data: VALUE } })).status, ctx).toBe(201);

      const list = await call('GET', `${level.base}/secrets`, { token });
      expect(list.status, ctx).toBe(200);
      expect(list.headers.get('x-total-count'), ctx).toBe('2');
      expect(list.body.map((x: object) => Object.keys(x).sort()), ctx).toEqual([
        ['created_at', 'description', 'name'],
        ['created_at', 'description', 'name'],
      ]);
      expect(list.body[0], ctx).toMatchObject({ name: 'DEPLOY_KEY', description: '' });
      expect(Date.parse(list.body[0].created_at), ctx).not.toBeNaN();

      const rows = await db.query<{ data_sealed: string }>(
        'SELECT data_sealed FROM runners.secrets WHERE owner_id = $1 AND repo_id = $2',
        [level.ownerId(), level.repoId()],
      );
      expect(rows.rows, ctx).toHaveLength(2);
      for (const row of rows.rows) {
        expect(row.data_sealed, ctx).toMatch(/^v1\./);
        expect(row.data_sealed, ctx).not.toContain(VALUE);
      }

      expect((await call('DELETE', s('deploy_key'), { token })).status, ctx).toBe(204);
      expect((await call('DELETE', s('deploy_key'), { token })).status, ctx).toBe(404);
      expect((await call('DELETE', s('other'), { token })).status, ctx).toBe(204);
    }
  });

  it('refuses invalid names (400), a missing value (422) and too long a value (400), naming the problem', async () => {
    const token = await createToken(suite, alice, ['write:repository']);
    const base = `/repos/${alice.username}/${repo}/actions/secrets`;
    const badName = await call('PUT', `${base}/GITHUB_TOKEN`, { token, body: { data: VALUE } });
    expect(badName.status).toBe(400);
    expect(badName.body.message).toMatch(/GITHUB_ or GITEA_/);
    expect((await call('PUT', `${base}/9LIVES`, { token, body: { data: VALUE } })).status).toBe(400);
    expect((await call('PUT', `${base}/NO_DATA`, { token, body: { description: VALUE } })).status).toBe(422);
    const tooLong = await call('PUT', `${base}/BIG`, { token, body: { data: `${VALUE}${'x'.repeat(65_536)}` } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toMatch(/data too long/);
  });

  it('Octokit deletes repository and organization secrets (the routes GitHub shares)', async () => {
    const token = await createToken(suite, alice, ['write:repository', 'write:organization']);
    const octokit = new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: token });
    expect((await call('PUT', `/repos/${alice.username}/${repo}/actions/secrets/OCTO`, { token, body: { data: VALUE } })).status).toBe(201);
    expect((await call('PUT', `/orgs/${org}/actions/secrets/OCTO`, { token, body: { data: VALUE } })).status).toBe(201);
    expect((await octokit.rest.actions.deleteRepoSecret({ owner: alice.username, repo, secret_name: 'OCTO' })).status).toBe(204);
    expect((await octokit.rest.actions.deleteOrgSecret({ org, secret_name: 'octo' })).status).toBe(204);
    await expect(octokit.rest.actions.deleteOrgSecret({ org, secret_name: 'OCTO' })).rejects.toMatchObject({ status: 404 });
  });

  it('no response of this file and no log line of any app carries a secret value', () => {
    expect(VALUE.length).toBeGreaterThan(10);
    const leaks = answered.filter((text) => text.includes(VALUE));
    expect(leaks).toEqual([]);
    const logs = logFiles(path.join(suite.dataDir, 'logs'));
    expect(logs.length).toBeGreaterThan(0);
    for (const file of logs) {
      expect(readFileSync(file, 'utf8').includes(VALUE), file).toBe(false);
    }
  });
});

describe('deletions remove the Actions data of what was deleted', () => {
  const count = async (table: 'variables' | 'secrets', ownerId: number, repoId: number) =>
    Number((await db.query(`SELECT count(*) AS n FROM runners.${table} WHERE owner_id = $1 AND repo_id = $2`, [ownerId, repoId])).rows[0].n);

  it('deleting a repository removes its variables and secrets, and nothing of anyone else', async () => {
    const name = uniqueName('doomed');
    const created = await api.post('/user/repos', { basic: alice, body: { name } });
    expect(created.status).toBe(201);
    const base = `/repos/${alice.username}/${name}/actions`;
    expect((await call('POST', `${base}/variables/DOOMED`, { basic: alice, body: { value: 'x' } })).status).toBe(201);
    expect((await call('PUT', `${base}/secrets/DOOMED`, { basic: alice, body: { data: 'x' } })).status).toBe(201);
    expect((await call('POST', `/repos/${alice.username}/${repo}/actions/variables/SURVIVOR`, { basic: alice, body: { value: 'x' } })).status).toBe(201);
    expect(await count('variables', 0, created.body.id)).toBe(1);

    expect((await api.delete(`/repos/${alice.username}/${name}`, { basic: alice })).status).toBe(204);
    await waitFor(async () => (await count('variables', 0, created.body.id)) === 0, 'the variables of the deleted repository gone');
    expect(await count('secrets', 0, created.body.id)).toBe(0);
    expect(await count('variables', 0, ids.repo)).toBeGreaterThan(0);
    // Consumed once: this repository's deletion event (other files delete repositories on the same instance).
    const consumed = await db.query(
      `SELECT c.subject FROM runners.consumed_events c JOIN repo.outbox_events o ON o.id = c.id
        WHERE c.subject = 'repo.evt.repository.deleted' AND o.payload #>> '{data,repository,id}' = $1`,
      [String(created.body.id)],
    );
    expect(consumed.rows).toHaveLength(1);
  });

  it("deleting a user removes the user's variables and secrets", async () => {
    const dave = await createUser(suite, admin, uniqueName('dave'));
    const daveId = (await api.get('/user', { basic: dave })).body.id as number;
    expect((await call('POST', '/user/actions/variables/DAVES', { basic: dave, body: { value: 'x' } })).status).toBe(201);
    expect((await call('PUT', '/user/actions/secrets/DAVES', { basic: dave, body: { data: 'x' } })).status).toBe(201);
    expect(await count('secrets', daveId, 0)).toBe(1);

    expect((await api.delete(`/admin/users/${dave.username}`, { basic: admin })).status).toBe(204);
    await waitFor(async () => (await count('secrets', daveId, 0)) === 0, "the deleted user's secrets gone");
    expect(await count('variables', daveId, 0)).toBe(0);
    expect(await count('variables', ids.alice, 0)).toBeGreaterThan(0);
  });
});

function logFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? logFiles(p) : [p];
  });
}
