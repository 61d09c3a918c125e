/**
 * What the gateway answers when a service fails it: a service that does not answer within `[cairn] RPC_TIMEOUT`
 * (identity-service frozen with SIGSTOP) → 504; no service listening at all (identity-service stopped) → 503. Both
 * with Gitea's JSON error body, and `/readyz` reporting the service as down.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, http, type Account, type HttpClient } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { FAST_PASSWORD_HASH, childAppPid, expectApiError } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
let admin: Account;
let token: string;
let identityPid: number;

/** The process state letter from /proc (`T` stopped, `S` sleeping, `R` running, `Z` zombie), or null when gone. */
function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
}

async function until(probe: () => boolean | Promise<boolean>, what: string, attempts = 200): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting: ${what}`);
}

beforeAll(async () => {
  suite = await startTestSuite({ env: { ...FAST_PASSWORD_HASH, CAIRN__CAIRN__RPC_TIMEOUT: '2s' } });
  api = http(suite);
  admin = await suite.createAdmin();
  token = await createToken(suite, admin, ['all']);
  identityPid = childAppPid('identity-service');
});

afterAll(async () => {
  if (identityPid && processState(identityPid) === 'T') process.kill(identityPid, 'SIGCONT');
  await suite?.stop();
});

describe('gateway errors', () => {
  it('answers 504 while identity-service does not answer, and recovers when it does', async () => {
    expect((await api.get('/user', { token })).status).toBe(200);
    process.kill(identityPid, 'SIGSTOP');
    try {
      await until(() => processState(identityPid) === 'T', 'identity-service stopped');
      const authed = await api.get('/user', { token });
      expectApiError(authed, 504, /did not answer within 2000 ms/);
      expect(authed.headers.get('x-request-id')).toEqual(expect.any(String));
      expectApiError(await api.get(`/users/${admin.username}`), 504);
      expectApiError(await api.post('/orgs', { token, body: { username: 'frozen-org' } }), 504);
      const ready = await fetch(`${suite.baseUrl}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'not ready', services: { identity: false } });
      // The gateway itself stays healthy.
      expect((await fetch(`${suite.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      process.kill(identityPid, 'SIGCONT');
    }
    await until(async () => (await api.get('/user', { token })).status === 200, 'identity-service answering again');
    const me = await api.get('/user', { token });
    expect(me.body.login).toBe(admin.username);
  });

  it('answers 503 when no identity-service is listening', async () => {
    process.kill(identityPid, 'SIGTERM');
    await until(() => processState(identityPid) === null || processState(identityPid) === 'Z', 'identity-service gone', 400);
    const authed = await api.get('/user', { token });
    expectApiError(authed, 503, /no service is answering/);
    expectApiError(await api.get(`/users/${admin.username}`), 503);
    expectApiError(await api.get('/user', { basic: admin }), 503);
    // Routes that need no service keep working.
    expect((await api.get('/version')).status).toBe(200);
    expect((await fetch(`${suite.baseUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${suite.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'not ready', services: { identity: false } });
  });
});
