import { Logger } from '@nestjs/common';
import pg from 'pg';

/**
 * A `pg.Pool` that survives PostgreSQL dropping one of its idle connections (a restart, a failover, an idle timeout
 * on a proxy). pg emits that as an `'error'` event on the pool; without a listener Node ends the whole process. The
 * listener only logs: the next query opens a new connection. Every plain pool of the apps should come from here.
 */
export function createPgPool(
  connectionString: string,
  options: { max: number; name: string; onIdleError?: (err: Error) => void },
): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: options.max });
  const logger = new Logger(options.name);
  pool.on('error', options.onIdleError ?? ((err) => logger.warn(`idle PostgreSQL connection closed: ${err.message}`)));
  return pool;
}

/**
 * Runs `work` on a client checked out of `pool`. A checked-out client has no listener of the pool's: PostgreSQL
 * going away while it is held would end the process. Here that is reported to `onLost` and the client is discarded
 * instead of returned to the pool; `work`'s own queries fail as usual.
 */
export async function withPgClient<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  onLost: (err: Error) => void,
): Promise<T> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const listener = (err: Error) => {
    lost = err;
    onLost(err);
  };
  client.on('error', listener);
  try {
    return await work(client);
  } finally {
    client.off('error', listener);
    client.release(lost ?? false);
  }
}
