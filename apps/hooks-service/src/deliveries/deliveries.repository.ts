import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { HookDelivery, HookDeliveryAttempt } from '../generated/prisma/client.js';
import { MicroBatcher, type Settled } from '@cairn/platform';
import { PrismaService } from '../prisma/prisma.service.js';
import { SqlPool } from '../prisma/sql-pool.js';

export type DeliveryRow = HookDelivery;
export type AttemptRow = HookDeliveryAttempt;

export interface NewDelivery {
  guid: string;
  hookId: number;
  repoId: number;
  eventId: string | null;
  eventKey: string;
  event: string;
  eventType: string;
  action: string | null;
  payload: string;
}

export interface ClaimedDelivery {
  id: number;
  guid: string;
  hookId: number;
  repoId: number;
  event: string;
  eventType: string;
  payload: string;
  roundStart: number;
  redelivery: boolean;
  hook: {
    id: number;
    type: string;
    url: string;
    contentType: string;
    secretSealed: string | null;
    authorizationSealed: string | null;
    repoId: number;
    ownerId: number;
  };
}

/** A claim on one attempt: only its holder may record the result. */
export interface DeliveryClaim {
  delivery: ClaimedDelivery;
  token: string;
  attempt: number;
}

export interface AttemptRecord {
  redelivery: boolean;
  url: string;
  method: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  responseStatus: number | null;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  error: string | null;
  outcome: 'delivered' | 'retry' | 'failed';
  durationMs: number;
  startedAt: Date;
}

export interface StrandedDelivery {
  id: number;
  eventId: string | null;
  attempt: number;
}

interface ClaimRequest {
  id: number;
  attempt: number;
  leaseMs: number;
  token: string;
}

interface FinishRequest {
  claim: DeliveryClaim;
  record: AttemptRecord;
  next: { status: 'delivered' | 'retrying' | 'failed'; delayMs: number };
}

function toClaim(r: ClaimRow, req: ClaimRequest): DeliveryClaim {
  return {
    token: req.token,
    attempt: req.attempt,
    delivery: {
      id: r.id,
      guid: r.guid,
      hookId: r.hook_id,
      repoId: r.repo_id,
      event: r.event,
      eventType: r.event_type,
      payload: r.payload,
      roundStart: r.round_start,
      redelivery: r.redelivery,
      hook: {
        id: r.hook_id,
        type: r.w_type,
        url: r.w_url,
        contentType: r.w_content_type,
        secretSealed: r.w_secret_sealed,
        authorizationSealed: r.w_authorization_sealed,
        repoId: r.w_repo_id,
        ownerId: r.w_owner_id,
      },
    },
  };
}

interface ClaimRow {
  id: number;
  guid: string;
  hook_id: number;
  repo_id: number;
  event: string;
  event_type: string;
  payload: string;
  round_start: number;
  redelivery: boolean;
  w_type: string;
  w_url: string;
  w_content_type: string;
  w_secret_sealed: string | null;
  w_authorization_sealed: string | null;
  w_repo_id: number;
  w_owner_id: number;
}

/** Claims (and results) of concurrent attempts: one statement in flight at a time, up to 200 rows each. */
const BATCHING = { maxBatch: 200, maxInFlight: 1 };

/** Timestamps are stored as UTC `timestamp(3)` (Prisma's convention); database time is the one clock. */
const NOW = `(now() AT TIME ZONE 'UTC')`;

/** Deliveries and attempts; the per-attempt path (claim, record) and the per-event insert are single SQL statements. */
@Injectable()
export class DeliveriesRepository {
  private readonly claims = new MicroBatcher<ClaimRequest, DeliveryClaim | null>((items) => this.claimBatch(items), BATCHING);
  private readonly finishes = new MicroBatcher<FinishRequest, boolean>((items) => this.finishBatch(items), BATCHING);

  constructor(
    private readonly prisma: PrismaService,
    private readonly sql: SqlPool,
  ) {}

  /** (event_id, hook_id, event_key) is unique, so a repeat of the event inserts nothing; answers the new rows' ids. */
  async createMany(rows: NewDelivery[]): Promise<number[]> {
    if (!rows.length) return [];
    const col = <K extends keyof NewDelivery>(k: K) => rows.map((r) => r[k]);
    // Hooks of one format get the same body: each distinct payload is sent once and rows refer to it by position.
    const payloads: string[] = [];
    const position = new Map<string, number>();
    const payloadOf = rows.map((r) => {
      let n = position.get(r.payload);
      if (n === undefined) position.set(r.payload, (n = payloads.push(r.payload)));
      return n;
    });
    const inserted = await this.sql.query<{ id: number }>(
      `INSERT INTO hooks.hook_deliveries
         (guid, hook_id, repo_id, event_id, event_key, event, event_type, action, payload, created_at, updated_at, next_attempt_at)
       SELECT guid, hook_id, repo_id, event_id, event_key, event, event_type, action, ($10::text[])[payload_of], ${NOW}, ${NOW}, ${NOW}
       FROM unnest($1::uuid[], $2::int[], $3::int[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[])
         AS t(guid, hook_id, repo_id, event_id, event_key, event, event_type, action, payload_of)
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [col('guid'), col('hookId'), col('repoId'), col('eventId'), col('eventKey'), col('event'), col('eventType'), col('action'), payloadOf, payloads],
    );
    return inserted.map((r) => r.id);
  }

  async create(row: NewDelivery): Promise<DeliveryRow> {
    return this.prisma.hookDelivery.create({ data: row });
  }

  async awaitingFirstAttempt(eventId: string): Promise<number[]> {
    const rows = await this.sql.query<{ id: number }>(
      `SELECT id FROM hooks.hook_deliveries WHERE event_id = $1 AND status = 'pending' AND attempts = 0 ORDER BY id`,
      [eventId],
    );
    return rows.map((r) => r.id);
  }

  /** Atomic, so an attempt has one holder; an expired claim (the worker died mid-attempt) is claimed again. */
  claim(id: number, attempt: number, leaseMs: number): Promise<DeliveryClaim | null> {
    return this.claims.add({ id, attempt, leaseMs, token: randomUUID() });
  }

  /** False if the claim was lost meanwhile (another worker took the attempt over after the lease expired). */
  finish(
    claim: DeliveryClaim,
    record: AttemptRecord,
    next: { status: 'delivered' | 'retrying' | 'failed'; delayMs: number },
  ): Promise<boolean> {
    return this.finishes.add({ claim, record, next });
  }

  private async claimBatch(items: ClaimRequest[]): Promise<Settled<DeliveryClaim | null>[]> {
    try {
      const rows = await this.sql.query<ClaimRow & { token: string }>(
        `WITH r AS (SELECT * FROM unnest($1::int[], $2::int[], $3::uuid[], $4::float8[]) AS r(id, attempt, token, lease_ms)),
         c AS (
           UPDATE hooks.hook_deliveries d
              SET status = 'delivering', attempts = r.attempt, claim_token = r.token,
                  lease_until = ${NOW} + make_interval(secs => r.lease_ms / 1000), updated_at = ${NOW}
             FROM r
            WHERE d.id = r.id
              AND ((d.status IN ('pending', 'retrying') AND d.attempts = r.attempt - 1)
                OR (d.status = 'delivering' AND d.attempts = r.attempt AND d.lease_until < ${NOW}))
            RETURNING d.id, d.guid, d.hook_id, d.repo_id, d.event, d.event_type, d.payload, d.round_start, d.redelivery,
                      d.claim_token AS token
         )
         SELECT c.*, w.type AS w_type, w.url AS w_url, w.content_type AS w_content_type,
                w.secret_sealed AS w_secret_sealed, w.authorization_sealed AS w_authorization_sealed,
                w.repo_id AS w_repo_id, w.owner_id AS w_owner_id
           FROM c JOIN hooks.webhooks w ON w.id = c.hook_id`,
        [items.map((i) => i.id), items.map((i) => i.attempt), items.map((i) => i.token), items.map((i) => i.leaseMs)],
      );
      const byToken = new Map(rows.map((r) => [r.token, r]));
      return items.map((i) => {
        const r = byToken.get(i.token);
        return { ok: true, value: r ? toClaim(r, i) : null };
      });
    } catch (err) {
      if (items.length === 1) return [{ ok: false, error: err }];
      return Promise.all(items.map(async (i) => (await this.claimBatch([i]))[0]));
    }
  }

  private async finishBatch(items: FinishRequest[]): Promise<Settled<boolean>[]> {
    // One JSON parameter rather than an array per column: serialising it is native, pg's array literals are not.
    const batch = items.map((i) => ({
      id: i.claim.delivery.id,
      token: i.claim.token,
      status: i.next.status,
      delay_ms: i.next.delayMs,
      response_status: i.record.responseStatus,
      error: i.record.error,
      duration_ms: i.record.durationMs,
      started_at: i.record.startedAt.toISOString(),
      number: i.claim.attempt,
      redelivery: i.record.redelivery,
      url: i.record.url,
      method: i.record.method,
      request_headers: i.record.requestHeaders,
      // The usual request body is the delivery's payload, already in the database: not sent again.
      request_body: i.record.requestBody === i.claim.delivery.payload ? null : i.record.requestBody,
      response_headers: i.record.responseHeaders,
      response_body: i.record.responseBody,
      outcome: i.record.outcome,
    }));
    try {
      const rows = await this.sql.query<{ delivery_id: number; number: number }>(
        `WITH r AS (
           SELECT * FROM json_to_recordset($1::json)
             AS r(id int, token uuid, status text, delay_ms float8, response_status int, error text, duration_ms int,
                  started_at timestamptz, number int, redelivery bool, url text, method text, request_headers jsonb,
                  request_body text, response_headers jsonb, response_body text, outcome text)
         ),
         d AS (
           UPDATE hooks.hook_deliveries h
              SET status = r.status, next_attempt_at = ${NOW} + make_interval(secs => r.delay_ms / 1000),
                  claim_token = NULL, lease_until = NULL, last_status_code = r.response_status, last_error = r.error,
                  last_duration_ms = r.duration_ms, last_attempt_at = (r.started_at AT TIME ZONE 'UTC'), updated_at = ${NOW}
             FROM r
            WHERE h.id = r.id AND h.claim_token = r.token
            RETURNING h.id, r.token
         )
         INSERT INTO hooks.hook_delivery_attempts
           (delivery_id, number, redelivery, url, method, request_headers, request_body, response_status,
            response_headers, response_body, error, outcome, duration_ms, started_at)
         SELECT r.id, r.number, r.redelivery, r.url, r.method, r.request_headers, COALESCE(r.request_body, p.payload),
                r.response_status, r.response_headers, r.response_body, r.error, r.outcome, r.duration_ms,
                (r.started_at AT TIME ZONE 'UTC')
           FROM r JOIN d ON d.id = r.id AND d.token = r.token
           LEFT JOIN hooks.hook_deliveries p ON r.request_body IS NULL AND p.id = r.id
         RETURNING delivery_id, number`,
        [JSON.stringify(batch)],
      );
      const done = new Set(rows.map((r) => `${r.delivery_id}:${r.number}`));
      return items.map((i) => ({ ok: true, value: done.has(`${i.claim.delivery.id}:${i.claim.attempt}`) }));
    } catch (err) {
      // One bad item (e.g. an attempt recorded twice) must not fail the others: retry them one by one.
      if (items.length === 1) return [{ ok: false, error: err }];
      return Promise.all(items.map(async (i) => (await this.finishBatch([i]))[0]));
    }
  }

  async list(hookId: number, skip: number, take: number) {
    const where = { hookId };
    const [items, total] = await Promise.all([
      this.prisma.hookDelivery.findMany({ where, orderBy: { id: 'desc' }, skip, take }),
      this.prisma.hookDelivery.count({ where }),
    ]);
    return { items, total };
  }

  findForHook(hookId: number, id: number) {
    return this.prisma.hookDelivery.findFirst({
      where: { id, hookId },
      include: { attemptLog: { orderBy: { number: 'asc' } } },
    });
  }

  findById(id: number) {
    return this.prisma.hookDelivery.findUnique({ where: { id } });
  }

  /** Starts a redelivery round of a finished delivery (same guid); null if it is not finished. */
  async startRedelivery(hookId: number, id: number): Promise<DeliveryRow | null> {
    const rows = await this.sql.query<{ id: number }>(
      `UPDATE hooks.hook_deliveries
          SET status = 'pending', round_start = attempts, redelivery = true, next_attempt_at = ${NOW}, updated_at = ${NOW}
        WHERE id = $1 AND hook_id = $2 AND status IN ('delivered', 'failed')
        RETURNING id`,
      [id, hookId],
    );
    return rows.length ? this.findById(id) : null;
  }

  /** Overdue pending/retrying deliveries and expired claims (their worker died): what should have a job by now. */
  async stranded(graceMs: number, afterId: number, limit: number): Promise<StrandedDelivery[]> {
    const rows = await this.sql.query<{ id: number; event_id: string | null; status: string; attempts: number }>(
      `SELECT id, event_id, status, attempts FROM hooks.hook_deliveries
        WHERE id > $1
          AND ((status IN ('pending', 'retrying') AND next_attempt_at <= ${NOW} - make_interval(secs => $2::float8 / 1000))
            OR (status = 'delivering' AND lease_until < ${NOW}))
        ORDER BY id
        LIMIT $3`,
      [afterId, graceMs, limit],
    );
    return rows.map((r) => ({ id: r.id, eventId: r.event_id, attempt: r.status === 'delivering' ? r.attempts : r.attempts + 1 }));
  }
}
