import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { DomainEvent, EventContract, EventOf, EventSubject } from '@cairn/contracts';
import { Logger } from '@nestjs/common';
import pg from 'pg';
import { PgListener } from '../db/pg-listener.js';
import { createPgPool, withPgClient } from '../db/pg-pool.js';
import { recordDeadLetter } from '../metrics/dead-letters.js';
import { assertEventFits, boundEventTexts, jsonBytes } from './event-size.js';
import { ensureEventsStream, namespaceOf, publishEvent } from './jetstream.js';
import { currentTraceparent } from '../tracing/trace-context.js';

/** Inserted in the change's transaction, published once committed; the `pg_notify` trigger wakes the relay, polling is the fallback. */
export function newEvent<S extends EventSubject>(type: S, data: EventContract[S]): EventOf<S> {
  return eventEnvelope(type, data);
}

/** Only for outbox and stream tests that move probe events. */
export function eventEnvelope<T, S extends string = string>(type: S, data: T): DomainEvent<T> & { type: S } {
  // Texts are cut here, so no long body can make an event too large (see event-size.ts).
  return { id: randomUUID(), type, occurredAt: new Date().toISOString(), data: boundEventTexts(data) };
}

/** Carries the writing transaction's trace context for consumers. */
export function outboxRow(event: DomainEvent) {
  assertEventFits(event);
  return { id: event.id, subject: event.type, payload: event as unknown as object, traceparent: currentTraceparent() ?? null };
}

/** NATS outages are not counted. */
export const OUTBOX_MAX_ATTEMPTS = 5;
export const OUTBOX_MAX_RETRY_DELAY_MS = 30_000;
export const OUTBOX_POLL_MS = 10_000;
const UNNOTIFIED_POLL_MS = 1_000;
const RETRY_FIRST_DELAY_MS = 1_000;
const PASS_SPACING_MS = 20;
const BATCH = 200;
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

class PoisonedRow extends Error {}

function isPoisoned(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name ?? '';
  return err instanceof PoisonedRow || name === 'InvalidArgumentError' || name === 'InvalidSubjectError';
}

function isTransient(err: unknown): boolean {
  const e = err as { name?: string; code?: string; message?: string } | null;
  if (!e) return false;
  const name = e.name ?? '';
  return (
    /^(ClosedConnectionError|DrainingConnectionError|ConnectionError|TimeoutError|NoRespondersError|RequestError)$/.test(name) ||
    /^(503|408|TIMEOUT|CONNECTION_CLOSED|CONNECTION_DRAINING|CONNECTION_REFUSED|DISCONNECT)$/.test(String(e.code ?? ''))
  );
}

/** See the `outbox_notify` migrations. */
export function outboxChannel(schema: string): string {
  return `${schema}.outbox_events`;
}

interface BatchResult {
  count: number;
  transient?: Error;
  retrying: boolean;
}

interface PendingRow {
  id: string;
  payload: unknown;
  attempts: number;
  traceparent: string | null;
}

export class OutboxRelay {
  private readonly logger = new Logger('OutboxRelay');
  private readonly pool: pg.Pool;
  private readonly listener: PgListener;
  private js?: JetStreamClient;
  private timer?: NodeJS.Timeout;
  private retryTimer?: NodeJS.Timeout;
  private paceTimer?: NodeJS.Timeout;
  private lastPassAt = 0;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private retryAt = 0;
  private retryDelayMs = 0;

  constructor(
    databaseUrl: string,
    private readonly schema: string,
    private readonly nc: NatsConnection,
    private readonly pollMs = OUTBOX_POLL_MS,
  ) {
    this.pool = createPgPool(databaseUrl, { max: 2, name: 'OutboxRelay' });
    this.listener = new PgListener(databaseUrl, outboxChannel(schema), () => this.kick(), `OutboxRelay:${schema}`);
  }

  get listening(): boolean {
    return this.listener.listening;
  }

  get listenerConnections(): number {
    return this.listener.connections;
  }

  async start(): Promise<void> {
    await ensureEventsStream(this.nc);
    this.js = jetstream(this.nc);
    // Starting to listen wakes the relay: rows committed before are published then.
    await this.listener.start();
    // Without the trigger (migrations not deployed yet) nothing notifies: poll instead.
    const pollMs = (await this.notifies()) ? this.pollMs : Math.min(this.pollMs, UNNOTIFIED_POLL_MS);
    this.timer = setInterval(() => {
      void this.listener.check();
      this.kick();
    }, pollMs);
    this.timer.unref();
    this.kick();
  }

  private async notifies(): Promise<boolean> {
    try {
      const { rows } = await this.pool.query<{ present: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'outbox_events_notify'
           AND tgrelid = to_regclass($1)) AS present`,
        [`"${this.schema}".outbox_events`],
      );
      if (rows[0]?.present) return true;
      this.logger.warn(`outbox relay (${this.schema}): no outbox_notify trigger (migrations not deployed?), polling every ${UNNOTIFIED_POLL_MS} ms`);
    } catch (err) {
      this.logger.warn(`outbox relay (${this.schema}): cannot check the outbox_notify trigger, polling every ${UNNOTIFIED_POLL_MS} ms: ${(err as Error).message}`);
    }
    return false;
  }

  /** Only while listening is down does this start a pass (no second, empty pass per commit). */
  committed(): void {
    if (!this.listener.listening) this.kick();
  }

  /** A call mid-pass makes one more pass, so no committed row waits for the poll. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    const wait = this.lastPassAt + PASS_SPACING_MS - Date.now();
    if (wait > 0) {
      if (!this.paceTimer) {
        this.paceTimer = setTimeout(() => {
          this.paceTimer = undefined;
          this.kick();
        }, wait);
        this.paceTimer.unref();
      }
      return;
    }
    this.pass();
  }

  private pass(): void {
    this.lastPassAt = Date.now();
    this.running = this.drain()
      .catch((err) => this.logger.warn(`outbox relay: ${(err as Error).message}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** While NATS is unreachable it resolves after one try. */
  async flush(): Promise<void> {
    // A pass under way may have read before the awaited rows committed: let it end, then pass ourselves, ignoring
    // back-off.
    while (this.running) await this.running;
    if (this.stopped) return;
    clearTimeout(this.paceTimer);
    this.paceTimer = undefined;
    this.retryAt = 0;
    this.again = false;
    this.pass();
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    if (Date.now() < this.retryAt) return;
    for (;;) {
      const { count, transient, retrying } = await this.relayBatch();
      if (transient || retrying) {
        // Backing off (NATS down, or a row failing unknown): a burst must not use up its attempts; the timer retries.
        this.retryDelayMs = Math.min(Math.max(this.retryDelayMs * 2, RETRY_FIRST_DELAY_MS), OUTBOX_MAX_RETRY_DELAY_MS);
        this.retryAt = Date.now() + this.retryDelayMs;
        this.scheduleRetry(this.retryDelayMs);
        if (transient) {
          this.logger.warn(`outbox relay (${this.schema}): NATS unavailable, trying again in ${this.retryDelayMs} ms: ${transient.message}`);
        }
        return;
      }
      this.retryDelayMs = 0;
      if (count < BATCH) return;
    }
  }

  private scheduleRetry(delayMs: number): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.kick(), delayMs);
    this.retryTimer.unref();
  }

  /** A NATS outage stops the batch, keeping what was published. */
  private async relayBatch(): Promise<BatchResult> {
    const table = `"${this.schema}".outbox_events`;
    return withPgClient(this.pool, (client) => this.relayRows(client, table), (err) =>
      this.logger.warn(`outbox relay: PostgreSQL connection lost: ${err.message}`),
    );
  }

  private async relayRows(client: pg.PoolClient, table: string): Promise<BatchResult> {
    try {
      await client.query('BEGIN');
      // SKIP LOCKED lets several replicas relay side by side without publishing a row twice.
      const { rows } = await client.query<PendingRow>(
        `SELECT id, payload, attempts, traceparent FROM ${table} WHERE published_at IS NULL AND failed_at IS NULL
         ORDER BY created_at, id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      );
      const published: string[] = [];
      let transient: Error | undefined;
      let retrying = false;
      for (const row of rows) {
        try {
          await this.publishRow(row);
          published.push(row.id);
        } catch (err) {
          if (isTransient(err)) {
            transient = err as Error;
            break;
          }
          if (!(await this.failRow(client, table, row, err as Error))) retrying = true;
        }
      }
      if (published.length) {
        await client.query(`UPDATE ${table} SET published_at = now() WHERE id = ANY($1::uuid[])`, [published]);
      }
      await client.query('COMMIT');
      return { count: rows.length, transient, retrying };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  private async publishRow(row: PendingRow): Promise<void> {
    const event = row.payload as DomainEvent | null;
    if (!event || typeof event !== 'object' || typeof event.id !== 'string' || typeof event.type !== 'string') {
      throw new PoisonedRow('the payload is not a domain event (id and type missing)');
    }
    const maxPayload = this.nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD;
    const bytes = jsonBytes(event);
    if (bytes > maxPayload) throw new PoisonedRow(`the event is ${bytes} bytes, over NATS max_payload (${maxPayload})`);
    await publishEvent(this.js!, event, namespaceOf(this.nc), row.traceparent);
  }

  private async failRow(client: pg.PoolClient, table: string, row: PendingRow, err: Error): Promise<boolean> {
    const attempts = row.attempts + 1;
    const dead = isPoisoned(err) || attempts >= OUTBOX_MAX_ATTEMPTS;
    const message = err.message.slice(0, 2_000);
    await client.query(
      `UPDATE ${table} SET attempts = $2, last_error = $3, failed_at = CASE WHEN $4::boolean THEN now() END WHERE id = $1`,
      [row.id, attempts, message, dead],
    );
    if (dead) recordDeadLetter('outbox', this.schema, `outbox row ${row.id}`, message);
    else this.logger.warn(`outbox row ${row.id} (${this.schema}) failed (attempt ${attempts}): ${message}`);
    return dead;
  }

  async stop(): Promise<void> {
    await this.flush().catch(() => undefined);
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    clearTimeout(this.retryTimer);
    clearTimeout(this.paceTimer);
    await this.listener.stop();
    await this.pool.end();
  }
}
