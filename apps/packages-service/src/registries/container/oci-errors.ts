/** OCI error codes with their HTTP status as Gitea answers them, and the spec's `{ errors: [...] }` body. */
export const OCI_ERRORS = {
  BLOB_UNKNOWN: { status: 404, message: 'blob unknown to registry' },
  BLOB_UPLOAD_INVALID: { status: 400, message: 'blob upload invalid' },
  BLOB_UPLOAD_UNKNOWN: { status: 404, message: 'blob upload unknown to registry' },
  DIGEST_INVALID: { status: 400, message: 'provided digest did not match uploaded content' },
  MANIFEST_BLOB_UNKNOWN: { status: 404, message: 'manifest references a blob unknown to registry' },
  MANIFEST_INVALID: { status: 400, message: 'manifest invalid' },
  MANIFEST_UNKNOWN: { status: 404, message: 'manifest unknown' },
  NAME_INVALID: { status: 400, message: 'invalid repository name' },
  NAME_UNKNOWN: { status: 404, message: 'repository name not known to registry' },
  SIZE_INVALID: { status: 400, message: 'provided length did not match content length' },
  RANGE_INVALID: { status: 416, message: 'invalid content range' },
  PAGINATION_NUMBER_INVALID: { status: 400, message: 'invalid number of results requested' },
  UNAUTHORIZED: { status: 401, message: 'authentication required' },
  DENIED: { status: 403, message: 'requested access to the resource is denied' },
  UNSUPPORTED: { status: 405, message: 'the operation is unsupported' },
  TOOMANYREQUESTS: { status: 429, message: 'too many requests' },
  /** Not in the spec's table: a dependency (database, identity-service) is down; the gateway uses it too. */
  UNAVAILABLE: { status: 503, message: 'the registry is temporarily unavailable' },
} as const satisfies Record<string, { status: number; message: string }>;

export type OciErrorCode = keyof typeof OCI_ERRORS;

export interface OciErrorBody {
  errors: { code: OciErrorCode; message: string; detail?: unknown }[];
}

export class OciError extends Error {
  readonly status: number;

  constructor(
    readonly code: OciErrorCode,
    message?: string,
    readonly detail?: unknown,
    status?: number,
  ) {
    super(message ?? OCI_ERRORS[code].message);
    this.name = 'OciError';
    this.status = status ?? OCI_ERRORS[code].status;
  }

  get body(): OciErrorBody {
    return ociErrorBody(this.code, this.message, this.detail);
  }
}

export function ociErrorBody(code: OciErrorCode, message?: string, detail?: unknown): OciErrorBody {
  const entry: OciErrorBody['errors'][number] = { code, message: message ?? OCI_ERRORS[code].message };
  if (detail !== undefined) entry.detail = detail;
  return { errors: [entry] };
}

/** A size limit (`[packages] LIMIT_SIZE_CONTAINER`, the owner's quota) was reached: the spec has no code for it. */
export function sizeLimitExceeded(what: string, limitBytes: number): OciError {
  return new OciError('SIZE_INVALID', `${what} exceeds the size limit of ${limitBytes} bytes`, undefined, 413);
}
