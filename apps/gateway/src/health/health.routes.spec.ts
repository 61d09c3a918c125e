import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { RpcClient } from '@cairn/platform';
import { registerHealthRoutes, type MetricsAccess } from './health.routes.js';

async function metrics(access: MetricsAccess, authorization?: string) {
  const app = Fastify();
  registerHealthRoutes(app, {} as RpcClient, access);
  const res = await app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
  await app.close();
  return res;
}

describe('/metrics ([metrics] ENABLED and TOKEN, as in Gitea)', () => {
  it('is not served unless enabled', async () => {
    expect((await metrics({ enabled: false, token: '' })).statusCode).toBe(404);
  });

  it('is open when enabled without a token', async () => {
    const res = await metrics({ enabled: true, token: '' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('cairn_gateway_');
  });

  it('requires Authorization: Bearer <TOKEN> when a token is set', async () => {
    const access = { enabled: true, token: 'the-token' };
    expect((await metrics(access)).statusCode).toBe(401);
    expect((await metrics(access, 'Bearer wrong')).statusCode).toBe(401);
    expect((await metrics(access, 'Basic dGhlLXRva2Vu')).statusCode).toBe(401);
    expect((await metrics(access, 'Bearer the-token')).statusCode).toBe(200);
  });
});
