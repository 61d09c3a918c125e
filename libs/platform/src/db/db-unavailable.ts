/**
 * Whether an error means "PostgreSQL cannot be reached right now" (a restart, a failover, a full pool) rather than
 * a bug: such a failure is the caller's 503 (UNAVAILABLE, retry later), not a 500. Errors come wrapped — Prisma's
 * request error around the driver adapter's around pg's — so the causes are walked.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.test(e.code)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
    current = e.cause ?? e.meta?.driverAdapterError;
  }
  return false;
}

/**
 * Prisma: P1001 can't reach, P1002 timed out, P1008 operation timed out, P1017 server closed the connection, P2024
 * pool timeout, P2037 too many connections. PostgreSQL SQLSTATE: class 08 (connection exception), 53300 (too many
 * connections: the server's max_connections is used up), 57P01–57P03 (shutting down, starting up).
 * Node: refused, reset, broken pipe. Messages: pg's and pg-pool's for a connection lost mid-query or not made in time.
 */
const UNAVAILABLE_CODES = /^(P1001|P1002|P1008|P1017|P2024|P2037|08\w{3}|53300|57P0[123]|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT)$/;
const UNAVAILABLE_MESSAGES =
  /Connection terminated|terminating connection due to administrator command|the database system is (starting up|shutting down)|Can't reach database server|Server has closed the connection|Timed out fetching a new connection|(encountered a connection error|was closed) and is not queryable|timeout exceeded when trying to connect|too many clients already/i;
