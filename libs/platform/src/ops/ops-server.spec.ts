import { afterEach, describe, expect, it } from 'vitest';
import { startOpsServer, type OpsServer } from './ops-server.js';
import { registerReadinessCheck } from './readiness.js';

let server: OpsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function get(path: string): Promise<{ status: number; body: string; type: string | null }> {
  const res = await fetch(`http://127.0.0.1:${server!.port}${path}`);
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type') };
}

describe('ops server', () => {
  it('is not ready while starting, ready once started with every check answering, not ready again when stopping', async () => {
    let dbUp = true;
    server = await startOpsServer({
      service: 'unit',
      address: { host: '127.0.0.1', port: 0 },
      checks: () => [{ name: 'postgres', check: async () => dbUp }],
    });
    expect((await get('/livez')).status).toBe(200);
    const starting = await get('/readyz');
    expect(starting.status).toBe(503);
    expect(JSON.parse(starting.body).status).toBe('starting');

    server.markStarted();
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({ status: 'ready', checks: { postgres: true } });

    dbUp = false;
    const down = await get('/readyz');
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body).checks).toEqual({ postgres: false });
    expect((await get('/metrics')).body).toMatch(/cairn_readiness_check\{check="postgres",service="unit"\} 0/);

    dbUp = true;
    server.markStopping();
    expect((await get('/readyz')).status).toBe(503);
  });

  it('counts a check that throws or never answers as down, and includes checks parts registered', async () => {
    const unregister = registerReadinessCheck('redis:unit-queue', () => new Promise<boolean>(() => undefined));
    try {
      server = await startOpsServer({
        service: 'unit',
        address: { host: '127.0.0.1', port: 0 },
        checks: () => [{ name: 'nats', check: async () => { throw new Error('connection refused'); } }],
      });
      server.markStarted();
      const res = await get('/readyz');
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body).checks).toEqual({ nats: false, 'redis:unit-queue': false });
    } finally {
      unregister();
    }
  });

  it('serves Prometheus text with the service label and Node.js runtime metrics; 404 elsewhere', async () => {
    server = await startOpsServer({ service: 'unit', address: { host: '127.0.0.1', port: 0 }, checks: () => [] });
    const metrics = await get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.type).toContain('text/plain');
    expect(metrics.body).toMatch(/^process_cpu_user_seconds_total\{service="unit"\} /m);
    expect(metrics.body).toContain('# TYPE cairn_rpc_server_duration_seconds histogram');
    expect((await get('/elsewhere')).status).toBe(404);
  });
});
