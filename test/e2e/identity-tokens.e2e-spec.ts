/**
 * Access tokens end to end: creating (Basic auth with the password only, secret shown once), listing, deleting by id or
 * name, the permission matrix (no token, whatever its scopes and however presented, manages tokens), Gitea's scopes on every identity route group, and `last_used_at` — null until first use, then
 * written at most once per token per `[security] TOKEN_LAST_USED_UPDATE_INTERVAL` (1 s in this suite), counted in the
 * suite's own database.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { basicAuth, startTestSuite, type TestSuite } from '../support/suite.js';
import { FAST_PASSWORD_HASH, expectApiError, expectContract, scopeMessage } from './identity-helpers.js';

const INTERVAL_MS = 1_000;
/** The 401 of the token routes for anything but the account's password (the gateway's PASSWORD_REQUIRED_MESSAGE). */
const PASSWORD_REQUIRED = /^auth required: use Basic authentication with your password/;

let suite: TestSuite;
let api: HttpClient;
let admin: Account;
let alice: Account;
let bob: Account;
let org: string;

beforeAll(async () => {
  suite = await startTestSuite({
    env: { ...FAST_PASSWORD_HASH, CAIRN__SECURITY__TOKEN_LAST_USED_UPDATE_INTERVAL: `${INTERVAL_MS / 1000}s` },
  });
  api = http(suite);
  admin = await suite.createAdmin();
  [alice, bob] = await Promise.all([
    createUser(suite, admin, uniqueName('alice')),
    createUser(suite, admin, uniqueName('bob')),
  ]);
  org = uniqueName('org');
  expect((await api.post('/orgs', { basic: alice, body: { username: org } })).status).toBe(201);
});

afterAll(async () => {
  await suite?.stop();
});

const tokensOf = (user: { username: string }) => `/users/${user.username}/tokens`;

describe('POST /users/{username}/tokens', () => {
  it('creates a token (201) whose secret is shown once, in sha1', async () => {
    const res = await api.post(tokensOf(alice), {
      basic: alice,
      body: { name: 'ci', scopes: ['read:user,write:organization', 'read:user', ' read:repository '] },
    });
    expectContract('POST', '/users/{username}/tokens', res, 201);
    expect(res.body).toMatchObject({
      name: 'ci',
      scopes: ['read:user', 'write:organization', 'read:repository'],
      last_used_at: null,
    });
    expect(res.body.sha1).toMatch(/^cairn_[0-9A-Za-z]{46}$/);
    expect(res.body.token_last_eight).toBe(res.body.sha1.slice(-8));
    expect(Number.isNaN(Date.parse(res.body.created_at))).toBe(false);
    const me = await api.get('/user', { token: res.body.sha1 });
    expect(me.body.login).toBe(alice.username);
    // Never shown again.
    const listed = await api.get(tokensOf(alice), { basic: alice });
    const again = listed.body.find((t: { id: number }) => t.id === res.body.id);
    expect(again).toMatchObject({ name: 'ci', sha1: '', token_last_eight: res.body.token_last_eight });
    expect(listed.text).not.toContain(res.body.sha1);
  });

  it('is for the user themself or a site admin: 403 for anyone else, 404 for unknown users', async () => {
    expectApiError(
      await api.post(tokensOf(alice), { basic: bob, body: { name: uniqueName('t'), scopes: ['all'] } }),
      403,
      'doer should be the site admin or be same as the contextUser',
    );
    const byAdmin = await api.post(tokensOf(bob), { basic: admin, body: { name: uniqueName('t'), scopes: ['read:user'] } });
    expect(byAdmin.status).toBe(201);
    expect((await api.get('/user', { token: byAdmin.body.sha1 })).body.login).toBe(bob.username);
    expectApiError(await api.post('/users/no-such-user/tokens', { basic: admin, body: { name: 't', scopes: ['all'] } }), 404);
  });

  it('refuses bad names and scopes (400 as Gitea, 422 for invalid fields) and creates nothing', async () => {
    const user = await createUser(suite, admin, uniqueName('tok'));
    await createToken(suite, user, ['all'], 'taken');
    const cases: Array<[unknown, number, string | RegExp]> = [
      [{ name: 'taken', scopes: ['all'] }, 400, 'access token name has been used already'],
      [{ name: 'x1', scopes: ['read:foo'] }, 400, 'invalid access token scope: read:foo'],
      [{ name: 'x1', scopes: ['admin'] }, 400, 'invalid access token scope: admin'],
      [{ name: 'x1', scopes: [] }, 400, 'access token must have a scope'],
      [{ name: 'x1' }, 400, 'access token must have a scope'],
      [{ name: 'x1', scopes: 'all' }, 422, /scopes must be an array/],
      [{ name: 'x1', scopes: [1] }, 422, /scopes/],
      [{ scopes: ['all'] }, 422, /name must be a string/],
      [{ name: 42, scopes: ['all'] }, 422, /name must be a string/],
      [{ name: 'n'.repeat(256), scopes: ['all'] }, 422, /name must be shorter/],
      [{ name: '   ', scopes: ['all'] }, 422, /name/],
      ['{"name": "x1", "scopes": [', 400, /JSON/],
    ];
    for (const [body, status, message] of cases) {
      const res = await api.post(tokensOf(user), { basic: user, body, headers: { 'content-type': 'application/json' } });
      expectApiError(res, status, message);
    }
    const list = await api.get(tokensOf(user), { basic: user });
    expect(list.body.map((t: { name: string }) => t.name)).toEqual(['taken']);
  });
});

describe('GET /users/{username}/tokens', () => {
  it('lists tokens with id, name, token_last_eight, scopes, created_at and last_used_at', async () => {
    const user = await createUser(suite, admin, uniqueName('lister'));
    const first = await createToken(suite, user, ['read:user'], 'first');
    await createToken(suite, user, ['write:organization', 'read:user'], 'second');
    const res = await api.get(tokensOf(user), { basic: user });
    expectContract('GET', '/users/{username}/tokens', res);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(res.body.map((t: { name: string }) => t.name)).toEqual(['second', 'first']);
    for (const t of res.body) {
      expect(Object.keys(t).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name', 'scopes', 'sha1', 'token_last_eight']);
      expect(t.sha1).toBe('');
      expect(t.last_used_at).toBeNull();
    }
    expect(res.body[1]).toMatchObject({ token_last_eight: first.slice(-8), scopes: ['read:user'] });
    const paged = await api.get(`${tokensOf(user)}?limit=1&page=2`, { basic: user });
    expect(paged.body.map((t: { name: string }) => t.name)).toEqual(['first']);
    expect(paged.headers.get('link')).toContain('rel="prev"');
  });

  it('answers 401 anonymous and for token headers, 403 another user, 200 a site admin', async () => {
    const token = await createToken(suite, alice, ['all']);
    expectApiError(await api.get(tokensOf(alice)), 401);
    expectApiError(await api.get(tokensOf(alice), { token }), 401, PASSWORD_REQUIRED);
    expectApiError(await api.get(tokensOf(alice), { basic: bob }), 403, 'doer should be the site admin or be same as the contextUser');
    expect((await api.get(tokensOf(alice), { basic: admin })).status).toBe(200);
    expectApiError(await api.get('/users/no-such-user/tokens', { basic: admin }), 404);
  });
});

describe('managing tokens needs the password: no token escalates (issue 9, item 4)', () => {
  /** Every way a client can present a token. */
  const presentations: Array<[string, (token: string, user: Account) => { path?: string; basic?: string; token?: string }]> = [
    ['Authorization: token', (token) => ({ token })],
    ['?token=', (token) => ({ path: `?token=${token}` })],
    ['?access_token=', (token) => ({ path: `?access_token=${token}` })],
    ['Basic user:token', (token, user) => ({ basic: basicAuth(user.username, token) })],
    ['Basic token:', (token) => ({ basic: basicAuth(token, '') })],
    ['Basic other-name:token', (token) => ({ basic: basicAuth('anybody', token) })],
  ];
  const scopeSets = [['all'], ['write:user'], ['read:user'], ['write:user', 'read:organization']];

  it.each(scopeSets.map((scopes) => [scopes]))('a token with %j is refused (401) on create, list and delete, however presented', async (scopes) => {
    const user = await createUser(suite, admin, uniqueName('esc'));
    const token = await createToken(suite, user, scopes, 'presented');
    await createToken(suite, user, ['read:user'], 'victim');
    for (const [how, present] of presentations) {
      const p = present(token, user);
      const opts = { ...(p.basic ? { basic: p.basic } : {}), ...(p.token ? { token: p.token } : {}) };
      const q = p.path ?? '';
      const created = await api.post(`${tokensOf(user)}${q}`, { ...opts, body: { name: uniqueName('esc'), scopes: ['all'] } });
      expectApiError(created, 401, PASSWORD_REQUIRED);
      expect(created.text, how).not.toMatch(/cairn_[0-9A-Za-z]{46}/);
      expectApiError(await api.get(`${tokensOf(user)}${q}`, opts), 401, PASSWORD_REQUIRED);
      expectApiError(await api.delete(`${tokensOf(user)}/victim${q}`, opts), 401, PASSWORD_REQUIRED);
    }
    // Nothing was created or deleted; the password still manages everything.
    const listed = await api.get(tokensOf(user), { basic: user });
    expect(listed.status).toBe(200);
    expect(listed.body.map((t: { name: string }) => t.name).sort()).toEqual(['presented', 'victim']);
    // The refused token itself keeps working for what its scopes allow.
    if (scopes.some((s) => s === 'all' || s.endsWith(':user'))) {
      expect((await api.get('/user', { token })).status).toBe(200);
    }
  });

  it('an admin token cannot manage another user\'s tokens either; an admin password can, also through Sudo', async () => {
    const user = await createUser(suite, admin, uniqueName('target'));
    const adminAll = await createToken(suite, admin, ['all']);
    expectApiError(
      await api.post(tokensOf(user), { token: adminAll, body: { name: 'x', scopes: ['all'] } }),
      401,
      PASSWORD_REQUIRED,
    );
    expectApiError(
      await api.post(tokensOf(user), { basic: basicAuth(admin.username, adminAll), body: { name: 'x', scopes: ['all'] } }),
      401,
      PASSWORD_REQUIRED,
    );
    expectApiError(
      await api.post(tokensOf(user), { token: adminAll, headers: { sudo: user.username }, body: { name: 'x', scopes: ['all'] } }),
      401,
      PASSWORD_REQUIRED,
    );
    const viaSudo = await api.post(tokensOf(user), {
      basic: admin,
      headers: { sudo: user.username },
      body: { name: 'by-sudo', scopes: ['read:user'] },
    });
    expect(viaSudo.status, viaSudo.text).toBe(201);
    expect((await api.get('/user', { token: viaSudo.body.sha1 })).body.login).toBe(user.username);
  });

  it('the password works for create (201), list (200) and delete (204); wrong passwords and anonymous callers get 401', async () => {
    const user = await createUser(suite, admin, uniqueName('pw'));
    const created = await api.post(tokensOf(user), { basic: user, body: { name: 'pw', scopes: ['all'] } });
    expect(created.status).toBe(201);
    expect((await api.get(tokensOf(user), { basic: user })).status).toBe(200);
    expectApiError(await api.get(tokensOf(user), { basic: basicAuth(user.username, 'wrong-password') }), 401);
    expectApiError(await api.post(tokensOf(user), { body: { name: 'anon', scopes: ['all'] } }), 401);
    expect((await api.delete(`${tokensOf(user)}/pw`, { basic: user })).status).toBe(204);
  });
});

describe('DELETE /users/{username}/tokens/{token}', () => {
  it('deletes by id or by name (204); the token stops working at once', async () => {
    const user = await createUser(suite, admin, uniqueName('deleter'));
    const byId = await api.post(tokensOf(user), { basic: user, body: { name: 'by-id', scopes: ['all'] } });
    const byName = await createToken(suite, user, ['all'], 'by name');
    expect((await api.get('/user', { token: byId.body.sha1 })).status).toBe(200);

    const res = await api.delete(`${tokensOf(user)}/${byId.body.id}`, { basic: user, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectApiError(await api.get('/user', { token: byId.body.sha1 }), 401);

    expect((await api.delete(`${tokensOf(user)}/${encodeURIComponent('by name')}`, { basic: user })).status).toBe(204);
    expectApiError(await api.get('/user', { token: byName }), 401);
    expect((await api.get(tokensOf(user), { basic: user })).body).toEqual([]);
  });

  it('answers 404 for unknown tokens, 403 for other users, 401 without Basic auth; admins may delete', async () => {
    const user = await createUser(suite, admin, uniqueName('owner'));
    const token = await api.post(tokensOf(user), { basic: user, body: { name: 'mine', scopes: ['all'] } });
    expectApiError(await api.delete(`${tokensOf(user)}/999999`, { basic: user }), 404);
    // Past the 32-bit ids the database holds (found by the fuzz suite: it was a 500).
    for (const id of ['2147483648', '99999999999999999999']) {
      expectApiError(await api.delete(`${tokensOf(user)}/${id}`, { basic: user }), 404);
    }
    expectApiError(await api.delete(`${tokensOf(user)}/no-such-name`, { basic: user }), 404);
    expectApiError(await api.delete(`${tokensOf(user)}/mine`, { basic: bob }), 403);
    // Somebody else's token id under one's own name does not exist.
    expectApiError(await api.delete(`${tokensOf(bob)}/${token.body.id}`, { basic: bob }), 404);
    expectApiError(await api.delete(`${tokensOf(user)}/mine`), 401);
    expectApiError(await api.delete(`${tokensOf(user)}/mine`, { token: token.body.sha1 }), 401, PASSWORD_REQUIRED);
    expect((await api.get('/user', { token: token.body.sha1 })).status).toBe(200);
    expect((await api.delete(`${tokensOf(user)}/mine`, { basic: admin })).status).toBe(204);
    expectApiError(await api.get('/user', { token: token.body.sha1 }), 401);
  });
});

describe('token scopes', () => {
  /** A request that passes the route's scope check answers anything but 403 (invalid bodies: 422, no side effects). */
  const routes = {
    readUser: { method: 'GET', path: '/user', needs: 'read:user' },
    writeUser: { method: 'POST', path: '/user/keys', needs: 'write:user', body: { title: 'x' } },
    readOrg: { method: 'GET', path: () => `/orgs/${org}`, needs: 'read:organization' },
    readOrgTeams: { method: 'GET', path: () => `/orgs/${org}/teams`, needs: 'read:organization' },
    writeOrg: { method: 'POST', path: '/orgs', needs: 'write:organization', body: {} },
    readUserOrgs: { method: 'GET', path: '/user/orgs', needs: 'read:organization' },
    writeMember: { method: 'DELETE', path: () => `/orgs/${org}/public_members/no-such-user`, needs: 'write:organization' },
  } as const;
  type Route = (typeof routes)[keyof typeof routes];

  async function call(route: Route, token: string) {
    const path = typeof route.path === 'function' ? route.path() : route.path;
    return api.request(route.method, path, { token, ...('body' in route ? { body: route.body } : {}) });
  }

  it.each([
    [['all'], []],
    [['read:user'], ['writeUser', 'readOrg', 'readOrgTeams', 'writeOrg', 'readUserOrgs', 'writeMember']],
    [['write:user'], ['readOrg', 'readOrgTeams', 'writeOrg', 'readUserOrgs', 'writeMember']],
    [['read:organization'], ['readUser', 'writeUser', 'writeOrg', 'writeMember']],
    [['write:organization'], ['readUser', 'writeUser']],
    [['read:user', 'write:organization'], ['writeUser']],
    [['read:repository', 'read:issue', 'write:package', 'read:misc', 'read:notification', 'read:activitypub'], Object.keys(routes)],
  ] as Array<[string[], string[]]>)('a token with %j is refused exactly %j', async (scopes, refused) => {
    const token = await createToken(suite, alice, scopes);
    for (const [name, route] of Object.entries(routes)) {
      const res = await call(route, token);
      if (refused.includes(name)) {
        expectApiError(res, 403, scopeMessage(route.needs, scopes));
      } else {
        expect(res.status, `${name} with ${scopes.join(',')}: ${res.text}`).not.toBe(403);
        expect(res.status, `${name}: ${res.text}`).toBeLessThan(500);
      }
    }
  });

  it('admin routes need read:admin / write:admin on top of being a site admin', async () => {
    const adminRoutes: Array<[string, string, unknown, string]> = [
      ['GET', '/admin/users', undefined, 'read:admin'],
      ['POST', '/admin/users', {}, 'write:admin'],
      ['PATCH', `/admin/users/${bob.username}`, { active: 'x' }, 'write:admin'],
      ['DELETE', '/admin/users/no-such-user', undefined, 'write:admin'],
      ['POST', `/admin/users/${bob.username}/orgs`, {}, 'write:admin'],
    ];
    const readAdmin = await createToken(suite, admin, ['read:admin']);
    const writeAdmin = await createToken(suite, admin, ['write:admin']);
    const notAdminScope = await createToken(suite, admin, ['write:user', 'write:organization']);
    const aliceAll = await createToken(suite, alice, ['all']);
    for (const [method, path, body, needs] of adminRoutes) {
      const opts = body === undefined ? {} : { body };
      expect((await api.request(method, path, { token: writeAdmin, ...opts })).status, `${method} ${path}`).not.toBe(403);
      const withRead = await api.request(method, path, { token: readAdmin, ...opts });
      if (needs === 'read:admin') expect(withRead.status).toBe(200);
      else expectApiError(withRead, 403, scopeMessage(needs, ['read:admin']));
      expectApiError(await api.request(method, path, { token: notAdminScope, ...opts }), 403, scopeMessage(needs, ['write:user', 'write:organization']));
      expectApiError(await api.request(method, path, { token: aliceAll, ...opts }), 403, 'user should be the site admin');
    }
  });

  it('creating an organization repository needs write:organization and write:repository (issue 9, item 14)', async () => {
    const create = (auth: { token?: string; basic?: Account }) =>
      api.post(`/orgs/${org}/repos`, { ...auth, body: { name: uniqueName('repo') } });
    const cases: Array<[string[], number]> = [
      [['write:organization'], 403],
      [['write:repository'], 403],
      [['read:organization', 'write:repository'], 403],
      [['write:organization', 'read:repository'], 403],
      [['write:organization', 'write:repository'], 201],
      [['all'], 201],
    ];
    for (const [scopes, status] of cases) {
      const res = await create({ token: await createToken(suite, alice, scopes) });
      if (status === 403) {
        expectApiError(res, 403, scopeMessage('write:organization write:repository', scopes));
      } else {
        expect(res.status, `${scopes.join(',')}: ${res.text}`).toBe(201);
      }
    }
    expect((await create({ basic: alice })).status).toBe(201);
    // Listing an organization's repositories is unchanged: read:organization.
    expect((await api.get(`/orgs/${org}/repos`, { token: await createToken(suite, alice, ['read:organization']) })).status).toBe(200);
  });

  it('does not apply to password logins', async () => {
    expect((await api.post('/user/keys', { basic: alice, body: { title: 'x' } })).status).toBe(422);
    expect((await api.get('/admin/users', { basic: admin })).status).toBe(200);
  });
});

describe('last_used_at', () => {
  let db: pg.Client;

  beforeAll(async () => {
    db = new pg.Client({ connectionString: suite.databaseUrl });
    await db.connect();
    // Test instrumentation in the suite's own database: every row written by an UPDATE of identity.access_tokens,
    // and every UPDATE statement (even one that changes no row), recorded synchronously.
    await db.query(`
      CREATE SCHEMA e2e_probe;
      CREATE TABLE e2e_probe.token_row_updates (token_id int NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp());
      CREATE TABLE e2e_probe.token_update_statements (at timestamptz NOT NULL DEFAULT clock_timestamp());
      CREATE FUNCTION e2e_probe.on_row() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN INSERT INTO e2e_probe.token_row_updates (token_id) VALUES (NEW.id); RETURN NULL; END $$;
      CREATE FUNCTION e2e_probe.on_statement() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN INSERT INTO e2e_probe.token_update_statements DEFAULT VALUES; RETURN NULL; END $$;
      CREATE TRIGGER e2e_probe_rows AFTER UPDATE ON identity.access_tokens FOR EACH ROW EXECUTE FUNCTION e2e_probe.on_row();
      CREATE TRIGGER e2e_probe_statements AFTER UPDATE ON identity.access_tokens FOR EACH STATEMENT EXECUTE FUNCTION e2e_probe.on_statement();
    `);
  });

  afterAll(async () => {
    await db?.end();
  });

  const rowWrites = async (tokenId: number) =>
    Number((await db.query('SELECT count(*) FROM e2e_probe.token_row_updates WHERE token_id = $1', [tokenId])).rows[0].count);
  const statements = async () => Number((await db.query('SELECT count(*) FROM e2e_probe.token_update_statements')).rows[0].count);
  const nTupUpd = async () =>
    Number(
      (await db.query(`SELECT n_tup_upd FROM pg_stat_user_tables WHERE schemaname = 'identity' AND relname = 'access_tokens'`))
        .rows[0].n_tup_upd,
    );
  async function lastUsed(user: Account, id: number): Promise<string | null> {
    const list = await api.get(tokensOf(user), { basic: user });
    return list.body.find((t: { id: number }) => t.id === id).last_used_at;
  }
  /** Polls (bounded by attempts) until `probe` is true; the waits carry no assertion about time. */
  async function eventually(probe: () => Promise<boolean>, attempts = 100, pauseMs = 100): Promise<boolean> {
    for (let i = 0; i < attempts; i++) {
      if (await probe()) return true;
      await new Promise((r) => setTimeout(r, pauseMs));
    }
    return false;
  }

  it('is null until the token is used, then set; many uses within the window write nothing more', async () => {
    const user = await createUser(suite, admin, uniqueName('usage'));
    const created = await api.post(tokensOf(user), { basic: user, body: { name: 'usage', scopes: ['read:user'] } });
    const { id, sha1: token } = created.body as { id: number; sha1: string };
    const statementsBefore = await statements();
    const tupBefore = await nTupUpd();
    expect(await lastUsed(user, id)).toBeNull();
    expect(await rowWrites(id)).toBe(0);

    // First use: written (off the request path, so look until it shows).
    const t0 = Date.now();
    expect((await api.get('/user', { token })).status).toBe(200);
    expect(await eventually(async () => (await lastUsed(user, id)) !== null)).toBe(true);
    const firstUse = (await lastUsed(user, id)) as string;
    expect(Date.parse(firstUse)).toBeGreaterThanOrEqual(Date.parse(created.body.created_at));
    expect(await rowWrites(id)).toBe(1);

    // A burst: 60 requests, 10 at a time. Whatever the machine's speed, the token can be written at most once per
    // started window of the burst — far fewer writes than requests.
    const burstStart = Date.now();
    for (let i = 0; i < 6; i++) {
      const replies = await Promise.all(Array.from({ length: 10 }, () => api.get('/user', { token })));
      expect(replies.every((r) => r.status === 200)).toBe(true);
    }
    const burstMs = Date.now() - burstStart;
    const sinceFirst = Date.now() - t0;
    const writes = await rowWrites(id);
    const allowed = 1 + Math.ceil(sinceFirst / INTERVAL_MS);
    expect(writes, `burst of ${burstMs} ms, ${sinceFirst} ms after the first use`).toBeLessThanOrEqual(allowed);
    expect(writes).toBeLessThan(10);
    // The throttle sits before the database: uses inside the window send no UPDATE statement at all.
    expect((await statements()) - statementsBefore).toBeLessThanOrEqual(allowed);

    // After the window, the next use writes again.
    const previous = (await lastUsed(user, id)) as string;
    const moved = await eventually(
      async () => {
        await api.get('/user', { token });
        const now = await lastUsed(user, id);
        return now !== null && Date.parse(now) > Date.parse(previous);
      },
      60,
      250,
    );
    expect(moved).toBe(true);
    const totalWrites = await rowWrites(id);
    expect(totalWrites).toBeGreaterThan(writes);
    expect(totalWrites).toBeLessThanOrEqual(1 + Math.ceil((Date.now() - t0) / INTERVAL_MS));
    // PostgreSQL's own statistics agree once they are flushed (they lag by up to a few seconds).
    expect(await eventually(async () => (await nTupUpd()) - tupBefore >= totalWrites, 60, 250)).toBe(true);
  });

  it('records uses of a token given as a Basic password or in the query string too', async () => {
    const user = await createUser(suite, admin, uniqueName('forms'));
    const viaBasic = await api.post(tokensOf(user), { basic: user, body: { name: 'basic', scopes: ['read:user'] } });
    const viaQuery = await api.post(tokensOf(user), { basic: user, body: { name: 'query', scopes: ['read:user'] } });
    expect((await api.get('/user', { basic: basicAuth(user.username, viaBasic.body.sha1) })).status).toBe(200);
    expect((await api.get(`/user?access_token=${viaQuery.body.sha1}`)).status).toBe(200);
    expect(await eventually(async () => (await lastUsed(user, viaBasic.body.id)) !== null)).toBe(true);
    expect(await eventually(async () => (await lastUsed(user, viaQuery.body.id)) !== null)).toBe(true);
    expect(await rowWrites(viaBasic.body.id)).toBe(1);
    expect(await rowWrites(viaQuery.body.id)).toBe(1);
  });
});
