/** Issue 9, item 1: an unpublishable row is dead-lettered and later rows still go out; a NATS outage dead-letters nothing. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EVENTS_STREAM } from '@cairn/contracts';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, freePort, waitForPort, type ScratchDatabase } from '../../../../test/support/integration.js';
import { deadLetterCount } from '../metrics/dead-letters.js';
import { connectNats } from './jetstream.js';
import { eventEnvelope, OutboxRelay } from './outbox.js';

class RestartableNats {
  private child?: ChildProcess;
  readonly store = mkdtempSync(path.join(tmpdir(), 'cairn-it-outbox-nats-'));
  constructor(readonly port: number) {}
  get url() {
    return `nats://127.0.0.1:${this.port}`;
  }
  async start() {
    this.child = spawn('/usr/sbin/nats-server', ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.store], { stdio: 'ignore' });
    await waitForPort(this.port, this.child);
  }
  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

let db: ScratchDatabase;
let nats: RestartableNats;
let nc: NatsConnection;
let relay: OutboxRelay;

async function insert(id: string, payload: unknown): Promise<void> {
  // Straight into the table, as a row written before events were bounded (or by hand) would be.
  await db.sql(`INSERT INTO repo.outbox_events (id, subject, payload, created_at) VALUES ($1, 'repo.evt.probe.made', $2::jsonb, clock_timestamp())`, [
    id,
    JSON.stringify(payload),
  ]);
}

async function row(id: string) {
  const [r] = await db.sql<{ published: boolean; failed: boolean; attempts: number; last_error: string | null }>(
    `SELECT published_at IS NOT NULL AS published, failed_at IS NOT NULL AS failed, attempts, last_error
       FROM repo.outbox_events WHERE id = $1`,
    [id],
  );
  return r;
}

async function streamMessages(): Promise<number> {
  const jsm = await jetstreamManager(nc);
  return (await jsm.streams.info(EVENTS_STREAM)).state.messages;
}

beforeAll(async () => {
  db = await createScratchDatabase('outbox', { services: ['repo'] });
  nats = new RestartableNats(await freePort());
  await nats.start();
  nc = await connectNats(nats.url, 'outbox-it');
  // A poll interval longer than the test: only flush() drives the relay.
  relay = new OutboxRelay(db.url, 'repo', nc, 600_000);
  await relay.start();
});

afterAll(async () => {
  await relay?.stop();
  await nc?.close();
  await nats?.stop();
  if (nats) rmSync(nats.store, { recursive: true, force: true });
  await db?.drop();
});

describe('OutboxRelay', () => {
  it('dead-letters an oversized row and a row that is no event, and publishes every row after them', async () => {
    const before = await deadLetterCount('outbox', 'repo');
    const first = eventEnvelope('repo.evt.probe.made', { n: 1 });
    const oversized = eventEnvelope('repo.evt.probe.made', { n: 2 });
    const garbage = randomUUID();
    const later = Array.from({ length: 5 }, (_, i) => eventEnvelope('repo.evt.probe.made', { n: 3 + i }));
    await insert(first.id, first);
    await insert(oversized.id, { ...oversized, data: { body: 'z'.repeat(1_100_000) } });
    await insert(garbage, { hello: 'world' });
    for (const e of later) await insert(e.id, e);

    await relay.flush();

    expect(await row(first.id)).toMatchObject({ published: true, failed: false });
    for (const e of later) expect(await row(e.id)).toMatchObject({ published: true, failed: false });
    expect(await row(oversized.id)).toMatchObject({ published: false, failed: true, attempts: 1 });
    expect((await row(oversized.id)).last_error).toMatch(/over NATS max_payload/);
    expect(await row(garbage)).toMatchObject({ published: false, failed: true });
    expect((await row(garbage)).last_error).toMatch(/not a domain event/);
    expect(await streamMessages()).toBe(1 + later.length);
    expect(await deadLetterCount('outbox', 'repo')).toBe(before + 2);

    // Dead letters are skipped from then on: the next rows go out at once.
    const next = eventEnvelope('repo.evt.probe.made', { n: 99 });
    await insert(next.id, next);
    await relay.flush();
    expect(await row(next.id)).toMatchObject({ published: true });
    expect(await row(oversized.id)).toMatchObject({ published: false, failed: true, attempts: 1 });
  });

  it('dead-letters nothing while NATS is down, and publishes the pending rows once it is back', async () => {
    const deadBefore = await deadLetterCount('outbox', 'repo');
    const published = await streamMessages();
    // Listen before the outage: a reconnect that happens while nats.start() is still returning must not be missed.
    const reconnected = new Promise<void>((resolve) => {
      void (async () => {
        for await (const s of nc.status()) if (s.type === 'reconnect') return resolve();
      })();
    });
    await nats.stop();
    const waiting = Array.from({ length: 3 }, (_, i) => eventEnvelope('repo.evt.probe.made', { waiting: i }));
    for (const e of waiting) await insert(e.id, e);
    await relay.flush();
    await relay.flush();
    for (const e of waiting) expect(await row(e.id)).toMatchObject({ published: false, failed: false, attempts: 0 });

    await nats.start();
    // The client reconnects on its own; wait for that status rather than for a time.
    await reconnected;
    await relay.flush();
    for (const e of waiting) expect(await row(e.id)).toMatchObject({ published: true, failed: false, attempts: 0 });
    expect(await streamMessages()).toBe(published + waiting.length);
    expect(await deadLetterCount('outbox', 'repo')).toBe(deadBefore);
  });
});
