/**
 * The closed set of domain error codes that services send back over NATS. Only the gateway turns them into HTTP
 * statuses, through {@link httpStatusForErrorCode} — the single home of that mapping.
 */
export enum ErrorCode {
  /** The message or request is malformed (shape, type). */
  INVALID_ARGUMENT = 'INVALID_ARGUMENT',
  /** No or bad credentials. */
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  /** Authenticated, but not allowed. */
  PERMISSION_DENIED = 'PERMISSION_DENIED',
  /** The resource does not exist (or the caller may not know it exists). */
  NOT_FOUND = 'NOT_FOUND',
  /** A resource with the same unique key exists. */
  ALREADY_EXISTS = 'ALREADY_EXISTS',
  /** The state does not allow it (merge conflict, stale head, empty repository). */
  CONFLICT = 'CONFLICT',
  /** The method is not allowed for the resource in its state (e.g. not mergeable). */
  NOT_ALLOWED = 'NOT_ALLOWED',
  /** The payload is too large. */
  CONTENT_TOO_LARGE = 'CONTENT_TOO_LARGE',
  /** Well-formed but semantically invalid (unparsable key, unknown hook type, bad glob). */
  UNPROCESSABLE = 'UNPROCESSABLE',
  /** The resource is read-only in its state (an archived repository: Gitea's 423). */
  LOCKED = 'LOCKED',
  /** Too many attempts (failed sign-ins): the envelope's `retryAfterSeconds` says when to try again. */
  RATE_LIMITED = 'RATE_LIMITED',
  /** A bug or an unexpected failure; the message is never shown to HTTP clients. */
  INTERNAL = 'INTERNAL',
  /** A service that is needed does not answer (nobody subscribed). */
  UNAVAILABLE = 'UNAVAILABLE',
  /** A service did not answer within its timeout. */
  TIMEOUT = 'TIMEOUT',
}

/** Maps every error code to its HTTP status. Exhaustive by construction (a Record over the enum). */
const HTTP_STATUS: Record<ErrorCode, number> = {
  [ErrorCode.INVALID_ARGUMENT]: 400,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.PERMISSION_DENIED]: 403,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.ALREADY_EXISTS]: 409,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.NOT_ALLOWED]: 405,
  [ErrorCode.CONTENT_TOO_LARGE]: 413,
  [ErrorCode.UNPROCESSABLE]: 422,
  [ErrorCode.LOCKED]: 423,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.INTERNAL]: 500,
  [ErrorCode.UNAVAILABLE]: 503,
  [ErrorCode.TIMEOUT]: 504,
};

/** The HTTP status the gateway answers for a domain error code. */
export function httpStatusForErrorCode(code: ErrorCode): number {
  return HTTP_STATUS[code] ?? 500;
}

/** The error envelope a service replies with instead of a result. */
export interface ErrorEnvelope {
  /** Marks the object as an error envelope (results never carry this key). */
  readonly cairnError: true;
  readonly code: ErrorCode;
  readonly message: string;
  /** Field-level problems (validation), shown to HTTP clients as `errors`. */
  readonly details?: string[];
  /** Set for INTERNAL errors: the id under which the service logged the cause. */
  readonly errorId?: string;
  /** Set for RATE_LIMITED: whole seconds until a new attempt may succeed (HTTP `Retry-After`). */
  readonly retryAfterSeconds?: number;
}

/** True when a reply (or thrown value) is an {@link ErrorEnvelope}. */
export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { cairnError?: unknown }).cairnError === true &&
    typeof (value as { code?: unknown }).code === 'string'
  );
}

/** Builds an error envelope. */
export function errorEnvelope(
  code: ErrorCode,
  message: string,
  details?: string[],
  errorId?: string,
  retryAfterSeconds?: number,
): ErrorEnvelope {
  return {
    cairnError: true,
    code,
    message,
    ...(details?.length ? { details } : {}),
    ...(errorId ? { errorId } : {}),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  };
}
