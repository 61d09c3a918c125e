import { describe, expect, it } from 'vitest';
import { DomainError, ErrorCode, httpStatusForErrorCode, isErrorEnvelope } from '@cairn/contracts';

describe('error codes', () => {
  it('maps every code to a 4xx or 5xx status', () => {
    for (const code of Object.values(ErrorCode)) {
      const status = httpStatusForErrorCode(code);
      expect(status >= 400 && status < 600, `${code} → ${status}`).toBe(true);
    }
    expect(httpStatusForErrorCode(ErrorCode.UNPROCESSABLE)).toBe(422);
    expect(httpStatusForErrorCode(ErrorCode.TIMEOUT)).toBe(504);
    expect(httpStatusForErrorCode(ErrorCode.RATE_LIMITED)).toBe(429);
  });
  it('round-trips a domain error through its envelope', () => {
    const env = new DomainError(ErrorCode.NOT_FOUND, 'no such user', ['username']).toEnvelope();
    expect(isErrorEnvelope(env)).toBe(true);
    expect(isErrorEnvelope({ code: 'NOT_FOUND' })).toBe(false);
    const back = DomainError.fromEnvelope(JSON.parse(JSON.stringify(env)));
    expect(back).toMatchObject({ code: ErrorCode.NOT_FOUND, message: 'no such user', details: ['username'] });
    const limited = DomainError.fromEnvelope(JSON.parse(JSON.stringify(DomainError.rateLimited('slow down', 12.2).toEnvelope())));
    expect(limited).toMatchObject({ code: ErrorCode.RATE_LIMITED, message: 'slow down', retryAfterSeconds: 13 });
  });
});
