import { describe, expect, it } from 'vitest';
import { judge } from './outcome.js';

const status = (code: number) => judge({ status: code, durationMs: 1 });

describe('attempt outcome', () => {
  it('2xx is delivered', () => {
    for (const c of [200, 201, 202, 204, 299]) expect(status(c)).toEqual({ delivered: true, transient: false, status: 'OK' });
  });

  it('408, 429 and 5xx are transient; other 4xx and 3xx are final', () => {
    for (const c of [408, 429, 500, 502, 503, 504]) expect(status(c)).toMatchObject({ delivered: false, transient: true });
    for (const c of [400, 401, 403, 404, 410, 422]) expect(status(c)).toMatchObject({ delivered: false, transient: false });
    expect(status(301)).toMatchObject({ transient: false, status: expect.stringMatching(/redirects are not followed/) });
    expect(status(503).status).toBe('Invalid HTTP Response: 503');
  });

  it('network errors and timeouts are transient; blocked targets and bad URLs are final', () => {
    expect(judge({ error: 'connection failed: ECONNREFUSED', errorKind: 'network', durationMs: 1 }).transient).toBe(true);
    expect(judge({ error: 'timed out', errorKind: 'timeout', durationMs: 1 }).transient).toBe(true);
    expect(judge({ error: 'blocked', errorKind: 'blocked', durationMs: 1 })).toEqual({ delivered: false, transient: false, status: 'blocked' });
    expect(judge({ error: 'invalid URL', errorKind: 'invalid', durationMs: 1 }).transient).toBe(false);
  });
});
