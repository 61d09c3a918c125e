export enum ErrorCode {
  INVALID_ARGUMENT = 'INVALID_ARGUMENT',
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  PERMISSION_DENIED = 'PERMISSION_DENIED',
  NOT_FOUND = 'NOT_FOUND',
  ALREADY_EXISTS = 'ALREADY_EXISTS',
  CONFLICT = 'CONFLICT',
  NOT_ALLOWED = 'NOT_ALLOWED',
  CONTENT_TOO_LARGE = 'CONTENT_TOO_LARGE',
  UNPROCESSABLE = 'UNPROCESSABLE',
  /** An archived repository: Gitea's 423. */
  LOCKED = 'LOCKED',
  RATE_LIMITED = 'RATE_LIMITED',
  INTERNAL = 'INTERNAL',
  UNAVAILABLE = 'UNAVAILABLE',
  TIMEOUT = 'TIMEOUT',
}

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

export function httpStatusForErrorCode(code: ErrorCode): number {
  return HTTP_STATUS[code] ?? 500;
}

export interface ErrorEnvelope {
  readonly cairnError: true;
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: string[];
  readonly errorId?: string;
  readonly retryAfterSeconds?: number;
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { cairnError?: unknown }).cairnError === true &&
    typeof (value as { code?: unknown }).code === 'string'
  );
}

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
