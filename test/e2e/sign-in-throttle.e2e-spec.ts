/**
 * Failed sign-ins are throttled per account and per source address (issue 9, item 6), over the API, git smart HTTP
 * and the web pages alike: 429 with `Retry-After`. The suite runs with 3 failures per account and 8 per address in a
 * 120 s window; every request comes from 127.0.0.1, which the gateway forwards to identity-service as the address
 * (or, from that trusted local proxy, the client its `X-Forwarded-For` names).
 * (That each TOTP code is accepted once is proven in identity-service's two-factor integration test: there is no
 * enrolment route over HTTP yet.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { basicAuth, startTestSuite, type TestSuite } from '../support/suite.js';
import { FAST_PASSWORD_HASH, expectApiError } from './identity-helpers.js';

const WINDOW_S = 120;

let suite: TestSuite;
let api: HttpClient;
let admin: Account;

beforeAll(async () => {
  suite = await startTestSuite({
    env: {
      ...FAST_PASSWORD_HASH,
      CAIRN__SECURITY__LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
      CAIRN__SECURITY__LOGIN_MAX_FAILURES_PER_ADDRESS: '8',
      CAIRN__SECURITY__LOGIN_FAILURE_WINDOW: `${WINDOW_S}s`,
    },
  });
  api = http(suite);
  admin = await suite.createAdmin();
});

afterAll(async () => {
  await suite?.stop();
});

function expectRetryAfter(res: { headers: Headers }): void {
  const value = res.headers.get('retry-after');
  expect(value, 'Retry-After').toMatch(/^\d+$/);
  expect(Number(value)).toBeGreaterThan(0);
  expect(Number(value)).toBeLessThanOrEqual(WINDOW_S);
}

describe('sign-in throttle', () => {
  // The tests share 127.0.0.1's count (8): the account test spends 3, the address test the rest.
  it('refuses an account after 3 wrong passwords — API, git HTTP and web — with 429 and Retry-After; tokens still work', async () => {
    const victim = await createUser(suite, admin, uniqueName('victim'));
    const token = await createToken(suite, victim, ['read:user']);
    const wrong = basicAuth(victim.username, 'not-the-password');
    for (let i = 0; i < 3; i++) expectApiError(await api.get('/user', { basic: wrong }), 401);

    const refused = await api.get('/user', { basic: victim });
    expectApiError(refused, 429, /^too many failed sign-in attempts for this account: try again in \d+ seconds/);
    expectRetryAfter(refused);

    const git = await fetch(`${suite.baseUrl}/${victim.username}/any.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: victim.basic },
    });
    expect(git.status).toBe(429);
    expectRetryAfter(git);
    expect(await git.text()).toMatch(/too many failed sign-in attempts/);

    // The web's sign-in form (web pages take no API credentials): its session cookie and CSRF token, then the password.
    const form = await fetch(`${suite.baseUrl}/user/login`);
    const cookie = (form.headers.get('set-cookie') ?? '').split(';')[0];
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
    expect(cookie && csrf, 'the sign-in page sets a session cookie and carries a CSRF token').toBeTruthy();
    const web = await fetch(`${suite.baseUrl}/user/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf!, user_name: victim.username, password: victim.password }).toString(),
    });
    expect(web.status).toBe(429);
    expectRetryAfter(web);

    // An access token is no password guess: it keeps working.
    expect((await api.get('/user', { token })).status).toBe(200);
  });

  it('refuses the source address after 8 failures on any accounts; the 429 names the address', async () => {
    const fresh = await createUser(suite, admin, uniqueName('fresh'));
    // 3 failures were spent above; 5 more on names that do not exist reach the address limit.
    for (let i = 0; i < 5; i++) {
      expectApiError(await api.get('/user', { basic: basicAuth(uniqueName('nobody'), 'x') }), 401);
    }
    const refused = await api.get('/user', { basic: fresh });
    expectApiError(refused, 429, /^too many failed sign-in attempts for your address/);
    expectRetryAfter(refused);
  });

  it('counts the client named by a trusted reverse proxy (X-Forwarded-For from loopback, the default) on its own', async () => {
    // 127.0.0.1 is refused now (above); behind the trusted local proxy, another client is not.
    const viaProxy = (basic: string, client: string) =>
      api.get('/user', { basic, headers: { 'x-forwarded-for': client } });
    const name = uniqueName('proxied');
    const password = 'Pw-proxied-0123456789';
    const created = await api.post('/admin/users', {
      basic: admin,
      headers: { 'x-forwarded-for': '203.0.113.5' },
      body: { username: name, email: `${name}@example.com`, password, must_change_password: false },
    });
    expect(created.status, created.text).toBe(201);
    const user = { basic: basicAuth(name, password) };
    expect((await viaProxy(user.basic, '203.0.113.5')).status).toBe(200);
    for (let i = 0; i < 8; i++) {
      expectApiError(await viaProxy(basicAuth(uniqueName('nobody'), 'x'), '203.0.113.6'), 401);
    }
    expectApiError(await viaProxy(user.basic, '203.0.113.6'), 429, /for your address/);
    expect((await viaProxy(user.basic, '203.0.113.5')).status).toBe(200);
  });
});
