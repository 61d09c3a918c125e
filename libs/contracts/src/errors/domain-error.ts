import { ErrorCode, type ErrorEnvelope, errorEnvelope } from './error-code.js';

/**
 * What services throw for an expected failure. It travels as an {@link ErrorEnvelope}; services never throw
 * HTTP exceptions, and the gateway decodes the envelope back into a DomainError.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: string[],
    readonly errorId?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  toEnvelope(): ErrorEnvelope {
    return errorEnvelope(this.code, this.message, this.details, this.errorId);
  }

  static fromEnvelope(envelope: ErrorEnvelope): DomainError {
    return new DomainError(envelope.code, envelope.message, envelope.details, envelope.errorId);
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
  static invalid(message: string, details?: string[]): DomainError {
    return new DomainError(ErrorCode.INVALID_ARGUMENT, message, details);
  }
}
