import { DomainError, httpStatusForErrorCode } from '@cairn/contracts';

/** A client's domain error (4xx) in the registry's own format; undefined for the rest (5xx, logged). */
export function clientErrorStatus(err: unknown): number | undefined {
  if (!(err instanceof DomainError)) return undefined;
  const status = httpStatusForErrorCode(err.code);
  return status < 500 ? status : undefined;
}
