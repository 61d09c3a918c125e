import { Logger } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/** Services keep theirs in process, readable with `platformMetrics.metrics()`; the gateway serves its own registry. */
export const platformMetrics = new Registry();

const deadLetters = new Counter({
  name: 'cairn_dead_letters_total',
  help: 'Messages given up on after their retries (outbox rows, JetStream events, queue jobs), by kind and source',
  labelNames: ['kind', 'source'],
  registers: [platformMetrics],
});

export type DeadLetterKind = 'outbox' | 'event' | 'job';

const logger = new Logger('DeadLetter');

/** The one dead-letter path; callers keep the item where it can be looked at (the outbox row, the advisory, BullMQ's failed set). */
export function recordDeadLetter(kind: DeadLetterKind, source: string, what: string, reason: string): void {
  deadLetters.inc({ kind, source });
  logger.error(`dead letter (${kind}, ${source}): ${what}: ${reason.slice(0, 500)}`);
}

export async function deadLetterCount(kind: DeadLetterKind, source: string): Promise<number> {
  const metric = await deadLetters.get();
  return metric.values.find((v) => v.labels.kind === kind && v.labels.source === source)?.value ?? 0;
}
