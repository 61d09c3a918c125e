import { describe, expect, it } from 'vitest';
import { DomainError, ErrorCode } from '@cairn/contracts';
import { clientErrorStatus } from './client-error-status.js';

describe('clientErrorStatus', () => {
  it('answers every client error of the one error-code map, not only the ones a registry thought of', () => {
    expect(clientErrorStatus(DomainError.notFound('x'))).toBe(404);
    expect(clientErrorStatus(new DomainError(ErrorCode.PERMISSION_DENIED, 'x'))).toBe(403);
    expect(clientErrorStatus(new DomainError(ErrorCode.RATE_LIMITED, 'x'))).toBe(429);
    expect(clientErrorStatus(new DomainError(ErrorCode.UNPROCESSABLE, 'x'))).toBe(422);
  });

  it('leaves server errors and foreign errors to the error handler', () => {
    expect(clientErrorStatus(new DomainError(ErrorCode.UNAVAILABLE, 'x'))).toBeUndefined();
    expect(clientErrorStatus(new DomainError(ErrorCode.INTERNAL, 'x'))).toBeUndefined();
    expect(clientErrorStatus(new Error('x'))).toBeUndefined();
  });
});
