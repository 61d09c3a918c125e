import { describe, expect, it } from 'vitest';
import { parseApiTime, parseRfc3339, toApiTime } from './api-time.js';

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

describe('toApiTime / parseApiTime', () => {
  it('writes whole seconds with Z, as Gitea', () => {
    expect(toApiTime(new Date('2026-11-28T20:31:05.789Z'))).toBe('2026-11-28T20:31:05Z');
  });

  it('reads only RFC 3339 with a zone (a time without one is refused, not taken as local time)', () => {
    expect(parseApiTime('2026-11-28T20:31:05.25+01:00')?.toISOString()).toBe('2026-11-28T19:31:05.250Z');
    expect(parseApiTime('2026-11-28T20:31:05')).toBeNull();
    expect(parseApiTime('2026-11-28')).toBeNull();
  });
});
