import { DomainError, httpStatusForErrorCode } from '@cairn/contracts';

/**
 * The status a registry answers in its own error format for a domain error that is the client's (any 4xx of the one
 * error-code map), or undefined for everything else, which the server's error handler answers and logs as a 5xx.
 */
export function clientErrorStatus(err: unknown): number | undefined {
  if (!(err instanceof DomainError)) return undefined;
  const status = httpStatusForErrorCode(err.code);
  return status < 500 ? status : undefined;
}
