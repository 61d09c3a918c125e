import { describe, expect, it } from 'vitest';
import { DomainError, ErrorCode } from '@cairn/contracts';
import { parseRfc3339 } from './rfc3339.js';
import { parseDateFilter } from './commits.service.js';

describe('parseRfc3339', () => {
  it('accepts UTC timestamps', () => {
    expect(parseRfc3339('2024-01-02T15:04:05Z')).toEqual({ seconds: 1704207845, fractional: false });
  });

  it('accepts fractional seconds and offsets', () => {
    expect(parseRfc3339('2024-01-02T15:04:05.123+02:00')).toEqual({ seconds: 1704200645, fractional: true });
    expect(parseRfc3339('2024-01-02T15:04:05.000000000-05:30')).toEqual({
      seconds: 1704207845 + 5 * 3600 + 1800,
      fractional: false,
    });
  });

  it('handles leap days and the epoch', () => {
    expect(parseRfc3339('2024-02-29T00:00:00Z')?.seconds).toBe(1709164800);
    expect(parseRfc3339('1970-01-01T00:00:00Z')?.seconds).toBe(0);
    expect(parseRfc3339('1969-12-31T23:59:59Z')?.seconds).toBe(-1);
  });

  it.each([
    '2024-01-02',
    '1700000000',
    'yesterday',
    '2024-13-01T00:00:00Z',
    '2024-00-10T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '2024-04-31T00:00:00Z',
    '2024-01-02T24:00:00Z',
    '2024-01-02T23:60:00Z',
    '2024-01-02T23:59:60Z',
    '2024-01-02T15:04:05',
    '2024-01-02 15:04:05Z',
    '2024-01-02T15:04:05+0200',
    '2024-01-02T15:04:05+24:00',
    '2024-01-02T15:04:05.Z',
    '2024-01-02T15:04:05.1234567890Z',
    ' 2024-01-02T15:04:05Z',
    '',
  ])('rejects %j', (v) => {
    expect(parseRfc3339(v)).toBeNull();
  });
});

describe('parseDateFilter', () => {
  it("fails with Gitea's 422 message naming the parameter", () => {
    for (const name of ['since', 'until'] as const) {
      let err: unknown;
      try {
        parseDateFilter(name, '2024-01-02');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe(ErrorCode.UNPROCESSABLE);
      expect((err as DomainError).message).toBe(`invalid '${name}' format, expected ISO 8601 (RFC3339)`);
    }
  });

  it('rounds a fractional lower bound up and an upper bound down (commit dates are whole seconds)', () => {
    expect(parseDateFilter('since', '2024-01-02T15:04:05.5Z')).toBe(1704207846);
    expect(parseDateFilter('until', '2024-01-02T15:04:05.5Z')).toBe(1704207845);
    expect(parseDateFilter('since', '2024-01-02T15:04:05Z')).toBe(1704207845);
    expect(parseDateFilter('since', undefined)).toBeUndefined();
  });
});
