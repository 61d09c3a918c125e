/**
 * The identity part of the API, end to end (foundation issue): instance endpoints, admin user management, who the
 * caller is (every authentication form, sudo), user profiles and search with Gitea's paging, public keys — each
 * with its permission matrix (anonymous, another user, the user, a site admin) and the bad-input cases. Tokens,
 * organizations and gateway failures have their own files.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesDefinition } from '../support/openapi-contract.js';
import { createToken, createUser, http, uniqueName, withLastCharChanged, type Account, type HttpClient } from '../support/session.js';
import { basicAuth, sharedTestSuite, type TestSuite } from '../support/suite.js';
import { expectApiError, expectClientError, expectContract, scopeMessage, sshKeyFactory } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
let admin: Account;
let alice: Account;
let bob: Account;
/** visibility private */
let carol: Account;
/** visibility limited */
let dave: Account;
let aliceToken: string;
const keys = sshKeyFactory();

beforeAll(async () => {
  suite = await sharedTestSuite();
  api = http(suite);
  admin = await suite.createAdmin();
  [alice, bob, carol, dave] = await Promise.all([
    createUser(suite, admin, uniqueName('alice')),
    createUser(suite, admin, uniqueName('bob')),
    createUser(suite, admin, uniqueName('carol'), { visibility: 'private' }),
    createUser(suite, admin, uniqueName('dave'), { visibility: 'limited' }),
  ]);
  aliceToken = await createToken(suite, alice, ['all']);
});

afterAll(async () => {
  keys.cleanup();
  await suite?.stop();
});

const json = { 'content-type': 'application/json' };

describe('instance endpoints', () => {
  it('answers /healthz and /readyz', async () => {
    const health = await fetch(`${suite.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${suite.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', services: { identity: true } });
  });

  it('tells its version and API settings without authentication', async () => {
    const version = await api.get('/version');
    expectContract('GET', '/version', version);
    expect(version.body.version).toEqual(expect.any(String));
    const settings = await api.get('/settings/api');
    expectContract('GET', '/settings/api', settings);
    expect(settings.body).toMatchObject({ max_response_items: 50, default_paging_num: 30 });
  });

  it('serves its API description at /swagger.v1.json, with the identity routes and this host', async () => {
    const res = await fetch(`${suite.baseUrl}/swagger.v1.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { swagger: string; host: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.swagger).toBe('2.0');
    expect(doc.host).toBe(new URL(suite.rootUrl).host);
    expect(Object.keys(doc.paths['/admin/users'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths['/admin/users/{username}/orgs'])).toContain('post');
    expect(Object.keys(doc.paths['/users/{username}/tokens'])).toEqual(expect.arrayContaining(['get', 'post']));
  });

  it('answers unknown API routes with a JSON 404', async () => {
    expectApiError(await api.get('/no/such/route', { basic: alice }), 404);
  });
});

describe('POST /admin/users', () => {
  it('creates a user for a site admin (201) who can sign in right away', async () => {
    const name = uniqueName('new');
    const res = await api.post('/admin/users', {
      basic: admin,
      body: { username: name, email: `${name}@example.com`, password: 'Pw-new-user-1', must_change_password: false, full_name: 'New One' },
    });
    expectContract('POST', '/admin/users', res, 201);
    expect(res.body).toMatchObject({ login: name, username: name, full_name: 'New One', email: `${name}@example.com`, is_admin: false });
    const me = await api.get('/user', { basic: basicAuth(name, 'Pw-new-user-1') });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(res.body.id);
  });

  it('needs a site admin: 401 anonymous, 403 another user, 403 a token without write:admin', async () => {
    const body = { username: uniqueName('x'), email: 'x@example.com', password: 'p' };
    expectApiError(await api.post('/admin/users', { body }), 401, 'token is required');
    expectApiError(await api.post('/admin/users', { basic: alice, body }), 403, 'user should be the site admin');
    expectApiError(await api.post('/admin/users', { token: aliceToken, body }), 403, 'user should be the site admin');
    const readAdmin = await createToken(suite, admin, ['read:admin']);
    expectApiError(await api.post('/admin/users', { token: readAdmin, body }), 403, scopeMessage('write:admin', ['read:admin']));
    const writeAdmin = await createToken(suite, admin, ['write:admin']);
    const name = uniqueName('bytoken');
    const ok = await api.post('/admin/users', { token: writeAdmin, body: { ...body, username: name, email: `${name}@example.com` } });
    expect(ok.status).toBe(201);
  });

  it('forces a password change by default: the new user gets 403 until an admin clears it', async () => {
    const name = uniqueName('fresh');
    const created = await api.post('/admin/users', {
      basic: admin,
      body: { username: name, email: `${name}@example.com`, password: 'Pw-fresh-1' },
    });
    expect(created.status).toBe(201);
    const basic = basicAuth(name, 'Pw-fresh-1');
    expectApiError(
      await api.get('/user', { basic }),
      403,
      `You must change your password. Change it at: ${suite.rootUrl}user/change_password`,
    );
    const edited = await api.patch(`/admin/users/${name}`, { basic: admin, body: { must_change_password: false } });
    expect(edited.status).toBe(200);
    expect((await api.get('/user', { basic })).status).toBe(200);
  });

  it('refuses bad bodies with 400 (unparsable) or 422 (invalid), and writes nothing', async () => {
    const name = uniqueName('bad');
    const valid = { username: name, email: `${name}@example.com`, password: 'p' };
    const cases: Array<[unknown, number, RegExp?]> = [
      ['{"username": "x",', 400, /JSON/i],
      ['{"__proto__": {"admin": true}}', 400],
      [[1, 2], 422],
      ['"just a string"', 422],
      [{ ...valid, username: 123 }, 422, /username must be a string/],
      [{ ...valid, username: 'x'.repeat(41) }, 422, /username must be shorter than or equal to 40 characters/],
      [{ ...valid, username: 'bad name!' }, 422, /invalid user name/],
      [{ ...valid, email: 'not-an-email' }, 422, /email must be an email/],
      [{ ...valid, password: 'p'.repeat(256) }, 422, /password must be shorter/],
      [{ ...valid, visibility: 'secret' }, 422, /visibility must be one of the following values/],
      [{ ...valid, must_change_password: 'no' }, 422, /must_change_password must be a boolean/],
      [{ ...valid, full_name: 'nul\u0000byte' }, 422, /NUL/],
      [{ ...valid, username: alice.username }, 422, /user already exists/],
      [{ ...valid, email: `${alice.username.toUpperCase()}@EXAMPLE.COM` }, 422, /e-mail already in use/],
    ];
    for (const [body, status, message] of cases) {
      const res = await api.post('/admin/users', { basic: admin, body, headers: json });
      expectApiError(res, status, message);
      if (status === 422 && typeof body === 'object' && !Array.isArray(body)) {
        expect(res.body.errors ?? [res.body.message]).toEqual(expect.arrayContaining([expect.any(String)]));
      }
    }
    // Nothing written: no account has this file's name or the e-mail address every case carries (searched by them:
    // other files add accounts to the same instance meanwhile).
    const after = await api.get(`/admin/users?q=${name}`, { basic: admin });
    expect(after.headers.get('x-total-count')).toBe('0');
    expectApiError(await api.get(`/users/${name}`, { basic: admin }), 404);
  });
});

describe('PATCH /admin/users/{username}', () => {
  it('edits only the fields given (200) for a site admin', async () => {
    const target = await createUser(suite, admin, uniqueName('edit'));
    const res = await api.patch(`/admin/users/${target.username}`, {
      basic: admin,
      body: { full_name: 'Edited Name', location: 'Gitea Town', website: 'https://example.com' },
    });
    expectContract('PATCH', '/admin/users/{username}', res);
    expect(res.body).toMatchObject({ login: target.username, full_name: 'Edited Name', location: 'Gitea Town', website: 'https://example.com' });
    const again = await api.patch(`/admin/users/${target.username}`, { basic: admin, body: { description: 'hello' } });
    expect(again.body).toMatchObject({ full_name: 'Edited Name', description: 'hello' });
    // A bodiless PATCH announcing JSON changes nothing.
    const empty = await api.patch(`/admin/users/${target.username}`, { basic: admin, headers: json });
    expect(empty.status).toBe(200);
    expect(empty.body.full_name).toBe('Edited Name');
  });

  it('can make a user a site admin and take it back', async () => {
    const target = await createUser(suite, admin, uniqueName('promote'));
    expect((await api.patch(`/admin/users/${target.username}`, { basic: admin, body: { admin: true } })).body.is_admin).toBe(true);
    expect((await api.get('/admin/users', { basic: target })).status).toBe(200);
    expect((await api.patch(`/admin/users/${target.username}`, { basic: admin, body: { admin: false } })).body.is_admin).toBe(false);
    expectApiError(await api.get('/admin/users', { basic: target }), 403);
  });

  it('answers 401 anonymous, 403 non-admins, 404 unknown users, 422 invalid fields', async () => {
    expectApiError(await api.patch(`/admin/users/${bob.username}`, { body: { full_name: 'x' } }), 401);
    expectApiError(await api.patch(`/admin/users/${bob.username}`, { basic: alice, body: { full_name: 'x' } }), 403, 'user should be the site admin');
    expectApiError(await api.patch(`/admin/users/${bob.username}`, { basic: bob, body: { admin: true } }), 403);
    expectApiError(await api.patch('/admin/users/no-such-user', { basic: admin, body: { full_name: 'x' } }), 404);
    expectApiError(await api.patch(`/admin/users/${bob.username}`, { basic: admin, body: { active: 'yes' } }), 422, /active must be a boolean/);
    expectApiError(await api.patch(`/admin/users/${bob.username}`, { basic: admin, body: { visibility: 'hidden' } }), 422);
    expectApiError(await api.patch(`/admin/users/${bob.username}`, { basic: admin, body: { email: 'nope' } }), 422);
    expectApiError(await api.patch(`/admin/users/${bob.username}`, { basic: admin, body: '{"full_name":', headers: json }), 400);
    const unchanged = await api.get(`/users/${bob.username}`, { basic: admin });
    expect(unchanged.body.full_name).toBe('');
    expect(unchanged.body.is_admin).toBe(false);
  });
});

describe('DELETE /admin/users/{username}', () => {
  it('deletes a user (204): the account and its credentials are gone', async () => {
    const victim = await createUser(suite, admin, uniqueName('victim'));
    const token = await createToken(suite, victim, ['all']);
    expectApiError(await api.delete(`/admin/users/${victim.username}`, { basic: alice }), 403);
    expectApiError(await api.delete(`/admin/users/${victim.username}`), 401);
    const res = await api.delete(`/admin/users/${victim.username}`, { basic: admin, headers: json });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectApiError(await api.get(`/users/${victim.username}`, { basic: admin }), 404);
    expectApiError(await api.get('/user', { basic: victim }), 401);
    expectApiError(await api.get('/user', { token }), 401);
    expectApiError(await api.delete(`/admin/users/${victim.username}`, { basic: admin }), 404);
  });

  it('refuses to delete a user who owns repositories (422), as Gitea; deletes them once the repositories are gone', async () => {
    const owner = await createUser(suite, admin, uniqueName('owner'));
    const repo = await api.post('/user/repos', { basic: owner, body: { name: 'kept' } });
    expect(repo.status, repo.text).toBe(201);
    const refused = await api.delete(`/admin/users/${owner.username}`, { basic: admin });
    expectApiError(refused, 422, `user "${owner.username}" still owns repositories: delete or transfer them first`);
    expect((await api.get(`/repos/${owner.username}/kept`, { basic: admin })).status).toBe(200);
    expect((await api.delete(`/repos/${owner.username}/kept`, { basic: owner })).status).toBe(204);
    expect((await api.delete(`/admin/users/${owner.username}`, { basic: admin })).status).toBe(204);
  });

  it('refuses to delete yourself (422)', async () => {
    expectApiError(await api.delete(`/admin/users/${admin.username}`, { basic: admin }), 422);
  });
});

describe('GET /admin/users', () => {
  it('lists every account for a site admin, private ones included, with X-Total-Count', async () => {
    // The suite is shared with other files' accounts: read every page.
    const res = await api.get('/admin/users?limit=50', { basic: admin });
    expectContract('GET', '/admin/users', res);
    const total = Number(res.headers.get('x-total-count'));
    const users: { login: string; email: string }[] = [...res.body];
    for (let page = 2; users.length < total && page <= 100; page++) {
      const next = await api.get(`/admin/users?limit=50&page=${page}`, { basic: admin });
      if (!next.body.length) break;
      users.push(...next.body);
    }
    const logins = users.map((u) => u.login);
    expect(logins).toEqual(expect.arrayContaining([admin.username, alice.username, carol.username, dave.username]));
    expect(total).toBeGreaterThanOrEqual(logins.length);
    // Admins see account details.
    expect(users.find((u) => u.login === alice.username)?.email).toBe(`${alice.username}@example.com`);
  });

  it('answers 401 anonymous, 403 a non-admin, and needs read:admin on tokens', async () => {
    expectApiError(await api.get('/admin/users'), 401, 'token is required');
    expectApiError(await api.get('/admin/users', { basic: alice }), 403, 'user should be the site admin');
    const readUser = await createToken(suite, admin, ['read:user']);
    expectApiError(await api.get('/admin/users', { token: readUser }), 403, scopeMessage('read:admin', ['read:user']));
    const readAdmin = await createToken(suite, admin, ['read:admin']);
    expect((await api.get('/admin/users', { token: readAdmin })).status).toBe(200);
  });
});

describe('POST /admin/users/{username}/orgs', () => {
  it('creates an organization owned by the named user (201)', async () => {
    const org = uniqueName('adminorg');
    const res = await api.post(`/admin/users/${bob.username}/orgs`, { basic: admin, body: { username: org, full_name: 'Made by admin' } });
    expectContract('POST', '/admin/users/{username}/orgs', res, 201);
    expect(res.body).toMatchObject({ name: org, username: org, full_name: 'Made by admin', visibility: 'public' });
    // bob owns it (its Owners team), the admin is not a member.
    const teams = await api.get(`/orgs/${org}/teams`, { basic: bob });
    expect(teams.status).toBe(200);
    expect(teams.body.map((t: { name: string }) => t.name)).toEqual(['Owners']);
    const members = await api.get(`/orgs/${org}/members`, { basic: bob });
    expect(members.body.map((u: { login: string }) => u.login)).toEqual([bob.username]);
  });

  it('answers 401 anonymous, 403 non-admins, 404 an unknown user, 422 a bad body', async () => {
    const body = { username: uniqueName('o') };
    expectApiError(await api.post(`/admin/users/${bob.username}/orgs`, { body }), 401);
    expectApiError(await api.post(`/admin/users/${bob.username}/orgs`, { basic: alice, body }), 403);
    expectApiError(await api.post(`/admin/users/${bob.username}/orgs`, { basic: bob, body }), 403);
    expectApiError(await api.post('/admin/users/no-such-user/orgs', { basic: admin, body }), 404);
    expectApiError(await api.post(`/admin/users/${bob.username}/orgs`, { basic: admin, body: { username: 5 } }), 422);
    expectApiError(await api.post(`/admin/users/${bob.username}/orgs`, { basic: admin, body: { ...body, visibility: 'x' } }), 422);
    expectApiError(await api.post(`/admin/users/${bob.username}/orgs`, { basic: admin, body: '{', headers: json }), 400);
    expectApiError(await api.get(`/orgs/${body.username}`, { basic: admin }), 404);
  });
});

describe('GET /user', () => {
  it('answers the caller for every authentication form', async () => {
    const forms: Array<[string, Parameters<HttpClient['get']>]> = [
      ['Basic password', ['/user', { basic: alice }]],
      ['token header', ['/user', { headers: { authorization: `token ${aliceToken}` } }]],
      ['bearer header', ['/user', { headers: { authorization: `Bearer ${aliceToken}` } }]],
      ['Basic with the token as password', ['/user', { basic: basicAuth('anything', aliceToken) }]],
      ['Basic with the token as user name', ['/user', { basic: basicAuth(aliceToken, '') }]],
      ['?token=', [`/user?token=${aliceToken}`]],
      ['?access_token=', [`/user?access_token=${aliceToken}`]],
    ];
    for (const [form, args] of forms) {
      const res = await api.get(...args);
      expect(res.status, `${form}: ${res.text}`).toBe(200);
      expect(res.body.login, form).toBe(alice.username);
    }
    const res = await api.get('/user', { token: aliceToken });
    expectContract('GET', '/user', res);
    // The caller sees their own details.
    expect(res.body).toMatchObject({ email: `${alice.username}@example.com`, is_admin: false, active: true });
  });

  it('answers 401 for missing, wrong or malformed credentials', async () => {
    expectApiError(await api.get('/user'), 401, 'token is required');
    expectApiError(await api.get('/user', { token: 'cairn_notARealTokenAtAll' }), 401);
    expectApiError(await api.get('/user', { token: withLastCharChanged(aliceToken) }), 401);
    expectApiError(await api.get('/user', { token: 'f'.repeat(40) }), 401);
    expectApiError(await api.get('/user', { basic: basicAuth(alice.username, 'wrong-password') }), 401);
    expectApiError(await api.get('/user', { basic: basicAuth('no-such-user', 'whatever') }), 401);
    for (const authorization of ['token', 'Basic !!!', 'Basic bm9jb2xvbg==', 'Digest abc', `token ${'x'.repeat(5000)}`]) {
      expectApiError(await api.get('/user', { headers: { authorization } }), 401);
    }
    expectApiError(await api.get('/user', { basic: basicAuth(`${'u'.repeat(300)}`, 'pw') }), 401);
    expectApiError(await api.get('/user', { basic: basicAuth('nul\u0000name', 'pw') }), 401);
  });

  it('lets a site admin act as another user with Sudo (header or ?sudo=), and nobody else', async () => {
    const viaHeader = await api.get('/user', { basic: admin, headers: { sudo: bob.username } });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body.login).toBe(bob.username);
    const viaQuery = await api.get(`/user?sudo=${bob.username}`, { basic: admin });
    expect(viaQuery.body.login).toBe(bob.username);
    // What the sudo target may do, not what the admin may do.
    expectApiError(await api.get('/admin/users', { basic: admin, headers: { sudo: bob.username } }), 403);
    expectApiError(await api.get('/user', { basic: alice, headers: { sudo: bob.username } }), 403, 'Only administrators allowed to sudo.');
    expectApiError(await api.get('/user', { token: aliceToken, headers: { sudo: admin.username } }), 403, 'Only administrators allowed to sudo.');
    expectApiError(await api.get('/user', { basic: admin, headers: { sudo: 'no-such-user' } }), 404);
  });

  it('needs read:user on tokens', async () => {
    const orgOnly = await createToken(suite, alice, ['read:organization']);
    expectApiError(await api.get('/user', { token: orgOnly }), 403, scopeMessage('read:user', ['read:organization']));
    const writeUser = await createToken(suite, alice, ['write:user']);
    expect((await api.get('/user', { token: writeUser })).status).toBe(200);
  });
});

describe('GET /users/{username}', () => {
  it('shows a public user to anyone, without private details', async () => {
    const res = await api.get(`/users/${alice.username}`);
    expectContract('GET', '/users/{username}', res);
    expect(res.body).toMatchObject({ login: alice.username, is_admin: false });
    expect(res.body.email).not.toBe(`${alice.username}@example.com`);
    const own = await api.get(`/users/${alice.username}`, { basic: alice });
    expect(own.body.email).toBe(`${alice.username}@example.com`);
  });

  it('hides private users from everyone but themselves and admins, limited ones from anonymous callers', async () => {
    expectApiError(await api.get(`/users/${carol.username}`), 404);
    expectApiError(await api.get(`/users/${carol.username}`, { basic: bob }), 404);
    expect((await api.get(`/users/${carol.username}`, { basic: carol })).status).toBe(200);
    expect((await api.get(`/users/${carol.username}`, { basic: admin })).status).toBe(200);
    expectApiError(await api.get(`/users/${dave.username}`), 404);
    expect((await api.get(`/users/${dave.username}`, { basic: bob })).status).toBe(200);
  });

  it('answers 404 for unknown users and a 4xx for names no account can have', async () => {
    expectApiError(await api.get('/users/no-such-user-here'), 404);
    expectClientError(await api.get(`/users/${'n'.repeat(300)}`));
    expectClientError(await api.get('/users/nul%00name'), 400);
  });
});

describe('GET /users/search', () => {
  it('finds users by keyword, only those the caller may see', async () => {
    const anonymous = await api.get(`/users/search?q=${carol.username}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ ok: true, data: [] });
    const asAdmin = await api.get(`/users/search?q=${carol.username}`, { basic: admin });
    expect(asAdmin.body.data.map((u: { login: string }) => u.login)).toEqual([carol.username]);
    const byName = await api.get(`/users/search?q=${alice.username.toUpperCase()}`);
    expect(byName.body.ok).toBe(true);
    expect(byName.body.data.map((u: { login: string }) => u.login)).toEqual([alice.username]);
    assertMatchesDefinition('User', byName.body.data[0]);
    expect(byName.headers.get('x-total-count')).toBe('1');
  });

  it('pages as Gitea: default 30, at most 50, X-Total-Count and Link', async () => {
    const stem = `pg${Date.now().toString(36)}`;
    const names = Array.from({ length: 52 }, (_, i) => `${stem}-${String(i).padStart(2, '0')}`);
    for (let i = 0; i < names.length; i += 8) {
      await Promise.all(names.slice(i, i + 8).map((n) => createUser(suite, admin, n)));
    }
    const first = await api.get(`/users/search?q=${stem}`);
    expect(first.body.data).toHaveLength(30);
    expect(first.headers.get('x-total-count')).toBe('52');
    const link = first.headers.get('link') ?? '';
    expect(link).toContain(`rel="next"`);
    expect(link).toMatch(/[?&]page=2[&>].*rel="next"/);
    expect(link).toMatch(/[?&]limit=30[&>]/);
    expect(link).toMatch(/page=2[^>]*>; rel="last"/);
    expect(link.startsWith(`<${suite.rootUrl}api/v1/users/search?`)).toBe(true);

    const capped = await api.get(`/users/search?q=${stem}&limit=500`);
    expect(capped.body.data).toHaveLength(50);
    expect(capped.headers.get('link')).toMatch(/limit=50/);
    const last = await api.get(`/users/search?q=${stem}&limit=50&page=2`);
    const seen = [...capped.body.data, ...last.body.data].map((u: { login: string }) => u.login);
    expect(last.body.data).toHaveLength(2);
    expect(seen.sort()).toEqual(names);
    const lastLink = last.headers.get('link') ?? '';
    expect(lastLink).toContain('rel="prev"');
    expect(lastLink).toContain('rel="first"');
    expect(lastLink).not.toContain('rel="next"');
    const beyond = await api.get(`/users/search?q=${stem}&page=9`);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.headers.get('x-total-count')).toBe('52');

    // Zero or negative paging values mean the defaults, as in Gitea.
    const fallback = await api.get(`/users/search?q=${stem}&page=0&limit=-1`);
    expect(fallback.status).toBe(200);
    expect(fallback.body.data).toHaveLength(30);
    expect(fallback.headers.get('link')).toContain('page=2');

    const adminPage = await api.get('/admin/users?limit=500', { basic: admin });
    expect(adminPage.body).toHaveLength(50);
  });

  it('answers 422 for paging values that are not integers, and uses the defaults for zero or negative ones (Gitea)', async () => {
    for (const q of ['page=abc', 'limit=ten', 'page=1.5', 'limit=99999999999', 'q=nul%00']) {
      expectApiError(await api.get(`/users/search?${q}`), 422);
    }
  });
});

describe('public keys', () => {
  it('adds a key (201) with its SHA256 fingerprint, created_at, and last_used_at null', async () => {
    const key = keys.generate('ed25519');
    const res = await api.post('/user/keys', { basic: alice, body: { title: 'laptop', key: key.publicKey } });
    expectContract('POST', '/user/keys', res, 201);
    expect(res.body).toMatchObject({
      title: 'laptop',
      fingerprint: key.fingerprint,
      last_used_at: null,
      key_type: 'user',
      read_only: false,
      user: { login: alice.username },
    });
    expect(key.publicKey.startsWith(res.body.key)).toBe(true);
    expect(res.body.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(Number.isNaN(Date.parse(res.body.created_at))).toBe(false);
    expect(res.body.url).toBe(`${suite.rootUrl}api/v1/user/keys/${res.body.id}`);
    const ecdsa = keys.generate('ecdsa', 256);
    expect((await api.post('/user/keys', { token: aliceToken, body: { title: 'ecdsa', key: ecdsa.publicKey } })).status).toBe(201);
  });

  it('refuses unparsable, too small and duplicate keys (422) and bad bodies', async () => {
    const rsa2048 = keys.generate('rsa', 2048);
    expectApiError(await api.post('/user/keys', { basic: bob, body: { title: 'weak', key: rsa2048.publicKey } }), 422, /too small/);
    expectApiError(await api.post('/user/keys', { basic: bob, body: { title: 'junk', key: 'ssh-ed25519 AAAAnotakey' } }), 422, 'invalid public key');
    expectApiError(await api.post('/user/keys', { basic: bob, body: { title: 'junk', key: 'hello world' } }), 422);
    const key = keys.generate('ed25519');
    expect((await api.post('/user/keys', { basic: bob, body: { title: 'once', key: key.publicKey } })).status).toBe(201);
    expectApiError(await api.post('/user/keys', { basic: bob, body: { title: 'twice', key: key.publicKey } }), 422, 'key already exists');
    // A key belongs to one account on the whole instance.
    expectApiError(await api.post('/user/keys', { basic: alice, body: { title: 'stolen', key: key.publicKey } }), 422, 'key already exists');
    const other = keys.generate('ed25519');
    expectApiError(await api.post('/user/keys', { basic: bob, body: { title: 'once', key: other.publicKey } }), 422);
    expectApiError(await api.post('/user/keys', { basic: bob, body: { title: 'no key' } }), 422, /key must be/);
    expectApiError(await api.post('/user/keys', { basic: bob, body: { title: 't'.repeat(256), key: other.publicKey } }), 422);
    expectApiError(await api.post('/user/keys', { basic: bob, body: { title: 7, key: other.publicKey } }), 422);
    expectApiError(await api.post('/user/keys', { basic: bob, body: '{"title":', headers: json }), 400);
    const listed = await api.get('/user/keys', { basic: bob });
    expect(listed.body.map((k: { fingerprint: string }) => k.fingerprint)).toEqual([key.fingerprint]);
  });

  it('lists, filters by fingerprint, gets and deletes the caller\'s own keys', async () => {
    const user = await createUser(suite, admin, uniqueName('keys'));
    const [k1, k2] = [keys.generate('ed25519'), keys.generate('ed25519')];
    const a = await api.post('/user/keys', { basic: user, body: { title: 'one', key: k1.publicKey } });
    const b = await api.post('/user/keys', { basic: user, body: { title: 'two', key: k2.publicKey } });
    const list = await api.get('/user/keys', { basic: user });
    expectContract('GET', '/user/keys', list);
    expect(list.headers.get('x-total-count')).toBe('2');
    expect(list.body.map((k: { id: number }) => k.id).sort()).toEqual([a.body.id, b.body.id].sort());
    const filtered = await api.get(`/user/keys?fingerprint=${encodeURIComponent(k2.fingerprint)}`, { basic: user });
    expect(filtered.body.map((k: { id: number }) => k.id)).toEqual([b.body.id]);
    const none = await api.get(`/user/keys?fingerprint=${encodeURIComponent(withLastCharChanged(k2.fingerprint))}`, { basic: user });
    expect(none.body).toEqual([]);

    const one = await api.get(`/user/keys/${a.body.id}`, { basic: user });
    expectContract('GET', '/user/keys/{id}', one);
    expect(one.body).toMatchObject({ id: a.body.id, fingerprint: k1.fingerprint, last_used_at: null });
    // Another user's key does not exist for the caller.
    expectApiError(await api.get(`/user/keys/${a.body.id}`, { basic: bob }), 404);
    expectApiError(await api.delete(`/user/keys/${a.body.id}`, { basic: bob }), 404);

    const removed = await api.delete(`/user/keys/${a.body.id}`, { basic: user });
    expect(removed.status).toBe(204);
    expectApiError(await api.get(`/user/keys/${a.body.id}`, { basic: user }), 404);
    expectApiError(await api.delete(`/user/keys/${a.body.id}`, { basic: user }), 404);
    expect((await api.get('/user/keys', { basic: user })).body).toHaveLength(1);
  });

  it('shows a user\'s keys to anyone (without owner details), 404 for unknown or hidden users', async () => {
    const key = keys.generate('ed25519');
    await api.post('/user/keys', { basic: dave, body: { title: 'dave', key: key.publicKey } });
    const res = await api.get(`/users/${dave.username}/keys`, { basic: bob });
    expectContract('GET', '/users/{username}/keys', res);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ fingerprint: key.fingerprint, title: 'dave' });
    expect(res.body[0]).not.toHaveProperty('user');
    expect(res.body[0]).not.toHaveProperty('key_type');
    expectApiError(await api.get(`/users/${dave.username}/keys`), 404); // limited: not for anonymous callers
    expectApiError(await api.get('/users/no-such-user/keys'), 404);
    const ofAlice = await api.get(`/users/${alice.username}/keys?fingerprint=${encodeURIComponent(key.fingerprint)}`);
    expect(ofAlice.body).toEqual([]);
  });

  it('answers 401 anonymous, 400 for ids that are not positive integers, 403 without write:user', async () => {
    expectApiError(await api.get('/user/keys'), 401);
    expectApiError(await api.post('/user/keys', { body: { title: 'x', key: 'y' } }), 401);
    expectApiError(await api.get('/user/keys/1'), 401);
    expectApiError(await api.delete('/user/keys/1'), 401);
    for (const id of ['abc', '0', '-1', '1.5']) {
      expectApiError(await api.get(`/user/keys/${id}`, { basic: alice }), 400, /id must be a positive integer/);
      expectApiError(await api.delete(`/user/keys/${id}`, { basic: alice }), 400);
    }
    expectApiError(await api.get('/user/keys/99999999999999999999', { basic: alice }), 404);
    expectApiError(await api.get('/user/keys/2147483648', { basic: alice }), 404);
    const readUser = await createToken(suite, alice, ['read:user']);
    expect((await api.get('/user/keys', { token: readUser })).status).toBe(200);
    const key = keys.generate('ed25519');
    expectApiError(
      await api.post('/user/keys', { token: readUser, body: { title: 'ro', key: key.publicKey } }),
      403,
      scopeMessage('write:user', ['read:user']),
    );
  });

  it('sets last_used_at when the key authenticates over SSH', async () => {
    const user = await createUser(suite, admin, uniqueName('sshuser'));
    const key = keys.generate('ed25519');
    const created = await api.post('/user/keys', { basic: user, body: { title: 'ssh', key: key.publicKey } });
    expect(created.body.last_used_at).toBeNull();
    await sshOnce(key.privateKeyPath, suite.sshPort);
    // The use is recorded off the request path: look until it shows (bounded by attempts, not by time).
    let lastUsed: string | null = null;
    for (let i = 0; i < 50 && lastUsed === null; i++) {
      lastUsed = (await api.get(`/user/keys/${created.body.id}`, { basic: user })).body.last_used_at;
      if (lastUsed === null) await new Promise((r) => setTimeout(r, 100));
    }
    expect(lastUsed).not.toBeNull();
    expect(Date.parse(lastUsed as string)).toBeGreaterThanOrEqual(Date.parse(created.body.created_at));
  });
});

/** One SSH session with a key (any git command: authenticating is what records the key's use). */
function sshOnce(privateKeyPath: string, port: number): Promise<void> {
  const args = [
    '-i', privateKeyPath, '-p', String(port),
    '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-o', 'BatchMode=yes',
    '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR',
    '-o', 'PreferredAuthentications=publickey', '-o', 'ConnectTimeout=20',
    'git@127.0.0.1', "git-upload-pack 'nobody/nothing.git'",
  ];
  // The command itself fails (no such repository): only the authentication matters here.
  return new Promise((resolve) => execFile('ssh', args, { timeout: 60_000 }, () => resolve()));
}
