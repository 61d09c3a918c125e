import type pg from 'pg';
import { onScrape, outboxLag } from '../metrics/cairn-metrics.js';

/** 0 when none waits; dead-lettered rows count in `cairn_dead_letters_total` instead. Returns a stopper. */
export function watchOutboxLag(schema: string, pool: pg.Pool): () => void {
  return onScrape(outboxLag, async () => {
    const { rows } = await pool.query<{ age: number | null }>(
      `SELECT EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age
         FROM "${schema}".outbox_events WHERE published_at IS NULL AND failed_at IS NULL`,
    );
    outboxLag.set({ schema }, Math.max(0, rows[0]?.age ?? 0));
  });
}
