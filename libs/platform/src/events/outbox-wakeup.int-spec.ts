/** Issue 15: the `outbox_notify` trigger wakes the relay (the poll is longer than any test); its connection survives a kill. */
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, startPrivateNats, type PrivateNats, type ScratchDatabase } from '../../../../test/support/integration.js';
import { connectNats } from './jetstream.js';
import { listenerApplicationName } from '../db/pg-listener.js';
import { eventEnvelope, outboxChannel, OutboxRelay } from './outbox.js';

/** Longer than the test timeout: a row published during a test was published because the relay was woken. */
const NEVER_MS = 600_000;
const SUBJECT = 'repo.evt.probe.made';

let db: ScratchDatabase;
let nats: PrivateNats;
let nc: NatsConnection;
let relays: OutboxRelay[] = [];
/** Core NATS sees each publish, also those the stream would drop as repeats. */
let seen: Map<string, number>;
let sub: Subscription;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await done())) await sleep(10);
}

async function startRelay(): Promise<OutboxRelay> {
  const relay = new OutboxRelay(db.url, 'repo', nc, NEVER_MS);
  relays.push(relay);
  await relay.start();
  // The passes of the start are over: from here on only a wake-up (or the poll) can start one.
  await relay.flush();
  return relay;
}

async function commitEvents(client: pg.ClientBase, count: number, tag: string): Promise<string[]> {
  const events = Array.from({ length: count }, (_, i) => eventEnvelope(SUBJECT, { tag, i }));
  await client.query('BEGIN');
  for (const e of events) {
    await client.query('INSERT INTO repo.outbox_events (id, subject, payload) VALUES ($1, $2, $3::jsonb)', [e.id, e.type, JSON.stringify(e)]);
  }
  await client.query('COMMIT');
  return events.map((e) => e.id);
}

async function unpublished(): Promise<number> {
  const [r] = await db.sql<{ n: number }>('SELECT count(*)::int AS n FROM repo.outbox_events WHERE published_at IS NULL');
  return r.n;
}

beforeAll(async () => {
  db = await createScratchDatabase('outbox_wakeup', { services: ['repo'] });
  nats = await startPrivateNats();
  nc = await connectNats(nats.url, 'outbox-wakeup-it');
  seen = new Map();
  sub = nc.subscribe('repo.evt.>', {
    callback: (err, msg) => {
      if (err) return;
      const id = (msg.json() as { id: string }).id;
      seen.set(id, (seen.get(id) ?? 0) + 1);
    },
  });
});

afterEach(async () => {
  for (const r of relays) await r.stop();
  relays = [];
});

afterAll(async () => {
  sub?.unsubscribe();
  await nc?.close();
  await nats?.stop();
  await db?.drop();
});

describe('OutboxRelay wake-up', () => {
  it('publishes a row committed by another connection without being kicked or polled, and only once committed', async () => {
    const relay = await startRelay();
    expect(relay.listening).toBe(true);
    const holder = new pg.Client({ connectionString: db.url });
    const other = new pg.Client({ connectionString: db.url });
    await Promise.all([holder.connect(), other.connect()]);
    try {
      // Written but not committed yet: its trigger's NOTIFY waits for the commit (and the row is invisible anyway).
      const held = eventEnvelope(SUBJECT, { step: 'held' });
      await holder.query('BEGIN');
      await holder.query('INSERT INTO repo.outbox_events (id, subject, payload) VALUES ($1, $2, $3::jsonb)', [
        held.id, held.type, JSON.stringify(held),
      ]);
      const [committed] = await commitEvents(other, 1, 'other');
      await until(() => seen.has(committed));
      expect(seen.has(held.id)).toBe(false);
      await holder.query('COMMIT');
      await until(() => seen.has(held.id));
      expect([seen.get(committed), seen.get(held.id)]).toEqual([1, 1]);
    } finally {
      await Promise.all([holder.end(), other.end()]);
    }
  });

  it('listens again after its connection is killed, and publishes what was committed meanwhile', async () => {
    const relay = await startRelay();
    const before = relay.listenerConnections;
    const killed = await db.sql<{ ok: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = $1`,
      [listenerApplicationName(outboxChannel('repo'))],
    );
    expect(killed).toEqual([{ ok: true }]);
    // Committed while the listener may still be down: the reconnect's catch-up publishes it.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const [during] = await commitEvents(client, 1, 'during');
      await until(() => relay.listenerConnections > before && relay.listening);
      await until(() => seen.has(during));
      // And notifications reach the new connection.
      const [after] = await commitEvents(client, 1, 'after');
      await until(() => seen.has(after));
      expect([seen.get(during), seen.get(after)]).toEqual([1, 1]);
    } finally {
      await client.end();
    }
  });

  it('loses no event and publishes none twice with concurrent writers and two relays', async () => {
    await startRelay();
    await startRelay();
    const writers = 6;
    const transactions = 25;
    const ids = (
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          const client = new pg.Client({ connectionString: db.url });
          await client.connect();
          try {
            const out: string[] = [];
            // 1 to 3 events per transaction, so passes overlap commits of every size.
            for (let t = 0; t < transactions; t++) out.push(...(await commitEvents(client, 1 + ((w + t) % 3), `w${w}`)));
            return out;
          } finally {
            await client.end();
          }
        }),
      )
    ).flat();
    await until(async () => (await unpublished()) === 0);
    await until(() => ids.every((id) => seen.has(id)));
    expect(ids.filter((id) => seen.get(id) !== 1)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('publishes a quick stream of commits completely: wake-ups during a pass or its spacing are never lost', async () => {
    await startRelay();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const ids: string[] = [];
      // One commit after the other, a few milliseconds apart: most land while a pass runs or waits its turn.
      for (let i = 0; i < 60; i++) ids.push(...(await commitEvents(client, 1, 'stream')));
      await until(() => ids.every((id) => seen.has(id)));
      expect(ids.filter((id) => seen.get(id) !== 1)).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('polls every second instead when the trigger is missing (migrations not deployed yet)', async () => {
    await db.sql('DROP TRIGGER outbox_events_notify ON repo.outbox_events');
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await startRelay();
      // Committed after the relay's passes ended: only its poll can find it (nothing notifies, nobody kicks).
      const [id] = await commitEvents(client, 1, 'unnotified');
      await until(() => seen.has(id));
      expect(seen.get(id)).toBe(1);
    } finally {
      await client.end();
      await db.sql('CREATE TRIGGER outbox_events_notify AFTER INSERT ON repo.outbox_events FOR EACH STATEMENT EXECUTE FUNCTION repo.outbox_events_notify()');
    }
  });
});
