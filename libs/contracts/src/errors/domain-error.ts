import { ErrorCode, type ErrorEnvelope, errorEnvelope } from './error-code.js';

/** Services never throw HTTP exceptions: a DomainError travels as an {@link ErrorEnvelope} and the gateway decodes it. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: string[],
    readonly errorId?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  toEnvelope(): ErrorEnvelope {
    return errorEnvelope(this.code, this.message, this.details, this.errorId, this.retryAfterSeconds);
  }

  static fromEnvelope(envelope: ErrorEnvelope): DomainError {
    const retryAfter = typeof envelope.retryAfterSeconds === 'number' ? envelope.retryAfterSeconds : undefined;
    return new DomainError(envelope.code, envelope.message, envelope.details, envelope.errorId, retryAfter);
  }

  static notFound(what = 'Not Found'): DomainError {
    return new DomainError(ErrorCode.NOT_FOUND, what);
  }
  static forbidden(message: string): DomainError {
    return new DomainError(ErrorCode.PERMISSION_DENIED, message);
  }
  static unprocessable(message: string, details?: string[]): DomainError {
    return new DomainError(ErrorCode.UNPROCESSABLE, message, details);
  }
  static alreadyExists(message: string): DomainError {
    return new DomainError(ErrorCode.ALREADY_EXISTS, message);
  }
  static conflict(message: string): DomainError {
    return new DomainError(ErrorCode.CONFLICT, message);
  }
  static rateLimited(message: string, retryAfterSeconds: number): DomainError {
    return new DomainError(ErrorCode.RATE_LIMITED, message, undefined, undefined, Math.max(1, Math.ceil(retryAfterSeconds)));
  }
  static invalid(message: string, details?: string[]): DomainError {
    return new DomainError(ErrorCode.INVALID_ARGUMENT, message, details);
  }
}
