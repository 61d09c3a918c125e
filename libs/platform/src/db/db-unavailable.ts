/** A restart, failover or full pool is the caller's 503, not a 500; the causes are walked (Prisma wraps the adapter wraps pg). */
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

/** Prisma P1001/P1002/P1008/P1017/P2024/P2037, SQLSTATE 08xxx/53300/57P01–57P03, Node socket errors, pg's own messages. */
const UNAVAILABLE_CODES = /^(P1001|P1002|P1008|P1017|P2024|P2037|08\w{3}|53300|57P0[123]|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT)$/;
const UNAVAILABLE_MESSAGES =
  /Connection terminated|terminating connection due to administrator command|the database system is (starting up|shutting down)|Can't reach database server|Server has closed the connection|Timed out fetching a new connection|(encountered a connection error|was closed) and is not queryable|timeout exceeded when trying to connect|too many clients already/i;
