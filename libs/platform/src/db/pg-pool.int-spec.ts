import { afterAll, describe, expect, it } from 'vitest';
import { PG_SERVER, sql } from '../../../../test/support/integration.js';
import { waitFor } from '../../../../test/support/wait.js';
import { createPgPool } from './pg-pool.js';

// What a PostgreSQL restart does to every open connection: the server ends it (57P01). Without the pool's listener
// pg's 'error' event is unhandled and ends the process (Vitest fails the run with an uncaught error).
describe('createPgPool', () => {
  const errors: Error[] = [];
  const pool = createPgPool(`${PG_SERVER}/postgres`, { max: 1, name: 'test', onIdleError: (err) => errors.push(err) });
  afterAll(() => pool.end());

  it('survives PostgreSQL ending its idle connection, and the next query reconnects', async () => {
    const [{ pid }] = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    await sql(`${PG_SERVER}/postgres`, 'SELECT pg_terminate_backend($1)', [pid]);
    await waitFor(() => errors.length > 0, 'the pool to report the dropped connection');
    expect(errors[0].message).toMatch(/terminating connection|terminated/);
    const [{ again }] = (await pool.query<{ again: number }>('SELECT pg_backend_pid() AS again')).rows;
    expect(again).not.toBe(pid);
  });
});
