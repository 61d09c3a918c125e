import { randomUUID } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { PG_SERVER, sql } from '../../../../test/support/integration.js';
import { waitFor } from '../../../../test/support/wait.js';
import { ClusterSchedule } from './cluster-schedule.js';

// Two "replicas" of one job on the real PostgreSQL: exactly one runs it, and the other takes over when the holder
// stops or its connection is cut.
describe('ClusterSchedule', () => {
  const job = `test-${randomUUID()}`;
  const runs = { a: 0, b: 0 };
  const schedule = (name: 'a' | 'b') => new ClusterSchedule({
    databaseUrl: `${PG_SERVER}/postgres`, job, everyMs: 3_600_000, run: async () => void runs[name]++,
  });
  const a = schedule('a');
  const b = schedule('b');
  beforeEach(() => {
    runs.a = runs.b = 0;
  });
  afterAll(async () => {
    await a.stop();
    await b.stop();
  });

  it('runs the job on one replica only; the other takes over once the holder stops', async () => {
    const c = schedule('a');
    const d = schedule('b');
    expect(await c.tick()).toBe(true);
    expect(await d.tick()).toBe(false);
    expect(await c.tick()).toBe(true);
    expect(runs).toEqual({ a: 2, b: 0 });
    await c.stop();
    expect(await d.tick()).toBe(true);
    expect(d.leading).toBe(true);
    await d.stop();
  });

  it('hands the job over when the holder’s connection is cut, and the old holder stands down', async () => {
    expect(await a.tick()).toBe(true);
    expect(await b.tick()).toBe(false);
    const [{ pid }] = await sql<{ pid: number }>(`${PG_SERVER}/postgres`,
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
         AND classid::bigint = $1 AND objid::bigint = (hashtext($2)::bigint & 4294967295)`, [0x53434844, job]);
    await sql(`${PG_SERVER}/postgres`, 'SELECT pg_terminate_backend($1)', [pid]);
    await waitFor(() => b.tick(), 'the other replica to take the job');
    expect(await a.tick()).toBe(false);
    expect(a.leading).toBe(false);
    expect(runs.a).toBe(1);
  });
});
