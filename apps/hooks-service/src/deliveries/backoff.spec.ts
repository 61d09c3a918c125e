import { describe, expect, it } from 'vitest';
import { backoffDelayMs, nextRetryDelayMs, parseRetryAfter } from './backoff.js';

describe('retry backoff', () => {
  it('doubles per retry within [d/2, d], capped', () => {
    const low = () => 0;
    const high = () => 1;
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, 2_000, 3_600_000, high))).toEqual([2_000, 4_000, 8_000, 16_000, 32_000]);
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, 2_000, 3_600_000, low))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
    expect(backoffDelayMs(30, 2_000, 60_000, high)).toBe(60_000);
    expect(backoffDelayMs(1, 100, 60_000, () => 0.5)).toBe(75);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });

  it('treats Retry-After as a floor, still capped', () => {
    const opts = { baseMs: 100, maxMs: 10_000 };
    expect(nextRetryDelayMs(1, { ...opts, retryAfterMs: 3_000 }, () => 1)).toBe(3_000);
    expect(nextRetryDelayMs(1, { ...opts, retryAfterMs: 0 }, () => 1)).toBe(100);
    expect(nextRetryDelayMs(1, { ...opts, retryAfterMs: 999_999 }, () => 1)).toBe(10_000);
    expect(nextRetryDelayMs(2, { ...opts, retryAfterMs: null }, () => 1)).toBe(200);
  });
});
