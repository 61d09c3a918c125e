import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { http } from '../support/session.js';

describe('the suite, started like npm start', () => {
  let suite: TestSuite;

  beforeAll(async () => {
    suite = await startTestSuite();
  });

  afterAll(async () => {
    await suite?.stop();
  });

  it('answers /healthz', async () => {
    const res = await fetch(`${suite.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('is ready: /readyz reports every service answering', async () => {
    const res = await fetch(`${suite.baseUrl}/readyz`);
    const body = (await res.json()) as { status: string; services: Record<string, boolean> };
    expect(res.status).toBe(200);
    expect(body.status).toBe('ready');
    expect(Object.keys(body.services).length).toBeGreaterThan(0);
    expect(Object.entries(body.services).filter(([, ok]) => !ok)).toEqual([]);
  });

  it('tells its version without authentication', async () => {
    const res = await http(suite).get('/version');
    expect(res.status).toBe(200);
    // The Gitea API level Cairn implements, Cairn's own version as build metadata.
    expect(res.body).toEqual({ version: expect.stringMatching(/^1\.25\.\d+\+cairn-\d+\.\d+\.\d+$/) });
  });

  it('signs in the administrator created with the admin CLI', async () => {
    const admin = await suite.createAdmin();
    const res = await http(suite).get('/user', { basic: admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ login: admin.username, is_admin: true });
  });

  it('refuses /user without credentials', async () => {
    const res = await http(suite).get('/user');
    expect(res.status).toBe(401);
  });
});
