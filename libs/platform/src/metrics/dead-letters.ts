import { Logger } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/**
 * The metrics every Cairn process shares (the gateway serves its own registry; services keep theirs in process,
 * readable with `platformMetrics.metrics()`, for a metrics endpoint to serve).
 */
export const platformMetrics = new Registry();

const deadLetters = new Counter({
  name: 'cairn_dead_letters_total',
  help: 'Messages given up on after their retries (outbox rows, JetStream events, queue jobs), by kind and source',
  labelNames: ['kind', 'source'],
  registers: [platformMetrics],
});

/** Where a dead letter comes from. */
export type DeadLetterKind = 'outbox' | 'event' | 'job';

const logger = new Logger('DeadLetter');

/**
 * The one dead-letter path: an item that will never be retried again is logged as an error (with what it was and
 * why) and counted in `cairn_dead_letters_total{kind,source}`. Callers keep the item itself where it can be looked
 * at (the outbox row with `failed_at`, the terminated JetStream message's advisory, BullMQ's failed set).
 */
export function recordDeadLetter(kind: DeadLetterKind, source: string, what: string, reason: string): void {
  deadLetters.inc({ kind, source });
  logger.error(`dead letter (${kind}, ${source}): ${what}: ${reason.slice(0, 500)}`);
}

/** The number of dead letters counted so far for `kind` and `source` (tests, health). */
export async function deadLetterCount(kind: DeadLetterKind, source: string): Promise<number> {
  const metric = await deadLetters.get();
  return metric.values.find((v) => v.labels.kind === kind && v.labels.source === source)?.value ?? 0;
}
