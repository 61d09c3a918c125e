import { Logger } from '@nestjs/common';
import pg from 'pg';

/** pg emits a dropped idle connection as an `'error'` event; without a listener Node ends the process. Every plain pool comes from here. */
export function createPgPool(
  connectionString: string,
  options: { max: number; name: string; onIdleError?: (err: Error) => void },
): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: options.max });
  const logger = new Logger(options.name);
  pool.on('error', options.onIdleError ?? ((err) => logger.warn(`idle PostgreSQL connection closed: ${err.message}`)));
  return pool;
}

/** A checked-out client has no pool listener: a loss is reported to `onLost` and the client discarded instead of returned. */
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
