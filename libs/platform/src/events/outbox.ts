import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { DomainEvent } from '@cairn/contracts';
import { Logger } from '@nestjs/common';
import pg from 'pg';
import { ensureEventsStream, namespaceOf, publishEvent } from './jetstream.js';

/**
 * The transactional outbox. Services insert the event row in the same transaction as the change (so an event is
 * never lost and never published for a rolled-back change); the relay publishes committed rows to JetStream and
 * marks them. Every data-owning service has this table in its own Postgres schema:
 *
 *   model OutboxEvent { id String @id @db.Uuid; subject String; payload Json; createdAt DateTime @default(now())
 *                       @map("created_at"); publishedAt DateTime? @map("published_at"); @@map("outbox_events") }
 */
export function newEvent<T>(type: string, data: T): DomainEvent<T> {
  return { id: randomUUID(), type, occurredAt: new Date().toISOString(), data };
}

/** The row to insert for an event (Prisma: `tx.outboxEvent.create({ data: outboxRow(event) })`). */
export function outboxRow(event: DomainEvent) {
  return { id: event.id, subject: event.type, payload: event as unknown as object };
}

export class OutboxRelay {
  private readonly logger = new Logger('OutboxRelay');
  private readonly pool: pg.Pool;
  private js?: JetStreamClient;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    databaseUrl: string,
    private readonly schema: string,
    private readonly nc: NatsConnection,
    private readonly pollMs = 1_000,
  ) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  }

  async start(): Promise<void> {
    await ensureEventsStream(this.nc);
    this.js = jetstream(this.nc);
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Publish now (call after committing a transaction that wrote events). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
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

  /** Resolves when everything committed so far has been published (used by tests and at shutdown). */
  async flush(): Promise<void> {
    this.kick();
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    for (;;) {
      const client = await this.pool.connect();
      let count = 0;
      try {
        await client.query('BEGIN');
        // SKIP LOCKED lets several replicas relay side by side without publishing a row twice.
        const { rows } = await client.query<{ id: string; payload: DomainEvent }>(
          `SELECT id, payload FROM "${this.schema}".outbox_events WHERE published_at IS NULL
           ORDER BY created_at, id LIMIT 200 FOR UPDATE SKIP LOCKED`,
        );
        count = rows.length;
        for (const row of rows) await publishEvent(this.js!, row.payload, namespaceOf(this.nc));
        if (rows.length) {
          await client.query(`UPDATE "${this.schema}".outbox_events SET published_at = now() WHERE id = ANY($1::uuid[])`, [
            rows.map((r) => r.id),
          ]);
        }
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
      if (count < 200) return;
    }
  }

  async stop(): Promise<void> {
    await this.flush().catch(() => undefined);
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.pool.end();
  }
}
