/** Own PostgreSQL, NATS and Redis servers: `/readyz` names a dependency while it is down, `/livez` stays 200 (no reason to restart). */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { RunnersEvents } from '@cairn/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS, REPO_ROOT } from '../../../../scripts/suite.mjs';
import { createScratchDatabase, type ScratchDatabase } from '../../../../test/support/integration.js';
import { startPrivateInfrastructure, type PrivateInfrastructure } from '../../../../test/support/private-infra.js';
import { distinctFreePorts } from '../../../../test/support/suite.js';
import { waitFor } from '../../../../test/support/wait.js';

interface Probe {
  status: number;
  body: Record<string, unknown>;
}

async function probe(url: string): Promise<Probe | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    const text = await res.text();
    return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : { text } };
  } catch {
    return null; // not listening yet
  }
}

async function outboxLag(): Promise<number> {
  const text = await (await fetch(`${runners}/metrics`)).text();
  const m = /^cairn_outbox_oldest_unpublished_age_seconds\{schema="runners",service="runners"\} (\S+)$/m.exec(text);
  if (!m) throw new Error(`no outbox lag in runners-service's metrics:\n${text.slice(0, 500)}`);
  return Number(m[1]);
}

const until = (base: string, path: string, status: number) =>
  waitFor(async () => {
    const res = await probe(`${base}${path}`);
    return res?.status === status ? res : null;
  }, `${base}${path} to answer ${status}`, 60_000);

let infra: PrivateInfrastructure;
let db: ScratchDatabase;
const children: ChildProcess[] = [];
const output = new Map<string, string>();
let runners: string;
let worker: string;

function startApp(name: string, opsPort: number, env: Record<string, string>): string {
  const app = APPS.find((a) => a.name === name)!;
  const child = spawn(process.execPath, [app.main], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, RUN_MODE: 'dev', CAIRN__OPS__PORT: String(opsPort), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  output.set(name, '');
  const keep = (d: Buffer) => output.set(name, (output.get(name)! + d.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  children.push(child);
  return `http://127.0.0.1:${opsPort}`;
}

beforeAll(async () => {
  infra = await startPrivateInfrastructure();
  db = await createScratchDatabase('ops', { services: ['runners'], server: infra.databaseUrl.replace(/\/[^/]*$/, '') });
  const env = {
    NATS_URL: infra.natsUrl,
    REDIS_URL: infra.redisUrl,
    DATABASE_URL: db.url,
    CAIRN__QUEUE__PREFIX: `cairn-it-ops-${randomBytes(4).toString('hex')}`,
  };
  const [runnersOps, workerOps, runnersInternal] = await distinctFreePorts(3);
  runners = startApp('runners-service', runnersOps, { ...env, CAIRN__CAIRN__RUNNERS_INTERNAL_PORT: String(runnersInternal) });
  worker = startApp('merge-check-worker', workerOps, env);
  await until(runners, '/readyz', 200);
  await until(worker, '/readyz', 200);
}, 180_000);

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
  }
  await db?.drop().catch(() => undefined);
  await infra?.close();
});

describe('ops endpoint of built apps', () => {
  it('reports ready with each dependency the app uses, and serves its metrics', async () => {
    const r = await until(runners, '/readyz', 200);
    expect(r.body.checks).toEqual({ postgres: true, nats: true, 'nats-queue-group': true });
    const w = await until(worker, '/readyz', 200);
    expect(w.body.checks).toEqual({
      nats: true, 'nats-queue-group': true, 'redis:merge-check': true, 'queue-worker:merge-check': true,
    });
    expect((await probe(`${runners}/livez`))?.status).toBe(200);

    const runnersMetrics = await (await fetch(`${runners}/metrics`)).text();
    expect(runnersMetrics).toMatch(/^cairn_outbox_oldest_unpublished_age_seconds\{schema="runners",service="runners"\} 0$/m);
    expect(runnersMetrics).toMatch(/^cairn_rpc_server_duration_seconds_count\{service="runners",subject="runners\.health\.check",outcome="ok"\} [1-9]/m);
    expect(runnersMetrics).toMatch(/^nodejs_heap_size_used_bytes\{service="runners"\} /m);
    const workerMetrics = await (await fetch(`${worker}/metrics`)).text();
    expect(workerMetrics).toMatch(/^cairn_queue_jobs\{queue="merge-check",state="wait",service="merge-check"\} 0$/m);
  });

  it('answers 503 naming NATS while NATS is down, and 200 once it is back; liveness is unaffected; outbox lag shows', async () => {
    await infra.stop('nats');
    try {
      for (const base of [runners, worker]) {
        const down = await until(base, '/readyz', 503);
        expect(down.body.checks).toMatchObject({ nats: false, 'nats-queue-group': false });
        expect((await probe(`${base}/livez`))?.status).toBe(200);
      }
      // An event committed a minute ago that the relay cannot publish while NATS is down.
      const id = randomUUID();
      const event = { id, type: RunnersEvents.runnerDeleted, occurredAt: new Date().toISOString(), data: { runnerId: 0 } };
      await db.sql(
        `INSERT INTO runners.outbox_events (id, subject, payload, created_at) VALUES ($1, $2, $3, now() - interval '60 seconds')`,
        [id, event.type, JSON.stringify(event)],
      );
      expect(await outboxLag()).toBeGreaterThanOrEqual(60);
    } finally {
      await infra.start('nats');
    }
    await until(runners, '/readyz', 200);
    await until(worker, '/readyz', 200);
    // Published once NATS is back: nothing waits any more.
    await waitFor(async () => (await outboxLag()) === 0, 'the outbox to drain', 60_000);
  });

  it("answers 503 naming Redis while Redis is down (the worker's queue), and PostgreSQL for a data-owning service", async () => {
    await infra.stop('redis');
    try {
      const down = await until(worker, '/readyz', 503);
      expect(down.body.checks).toMatchObject({ 'redis:merge-check': false, nats: true });
      // runners-service does not use Redis: still ready.
      expect((await probe(`${runners}/readyz`))?.status).toBe(200);
    } finally {
      await infra.start('redis');
    }
    await until(worker, '/readyz', 200);

    await infra.stop('postgres');
    try {
      const down = await until(runners, '/readyz', 503);
      expect(down.body.checks).toMatchObject({ postgres: false, nats: true });
      expect((await probe(`${worker}/readyz`))?.status).toBe(200);
    } finally {
      await infra.start('postgres');
    }
    await until(runners, '/readyz', 200);
  });
});
