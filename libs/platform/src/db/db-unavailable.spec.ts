import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './db-unavailable.js';

describe('isDatabaseUnavailable', () => {
  it('recognises a restart, a refused connection and a full pool through the wrappers', () => {
    const pgShutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    expect(isDatabaseUnavailable(pgShutdown)).toBe(true);
    expect(isDatabaseUnavailable({ code: 'P2024', message: 'Timed out fetching a new connection' })).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }))).toBe(true);
    expect(isDatabaseUnavailable({ code: 'P2010', meta: { driverAdapterError: new Error('Connection terminated unexpectedly') } })).toBe(true);
    // A server whose max_connections is used up (schemathesis met it as 500s while other suites shared PostgreSQL).
    expect(isDatabaseUnavailable(new Error('Too many database connections opened: sorry, too many clients already'))).toBe(true);
    expect(isDatabaseUnavailable({ code: 'P2037', message: 'Too many database connections opened' })).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('sorry, too many clients already'), { code: '53300' }))).toBe(true);
    // pg's and pg-pool's own words for a connection lost mid-query or not made in time (no code attached).
    for (const message of [
      'Client has encountered a connection error and is not queryable',
      'Client was closed and is not queryable',
      'timeout exceeded when trying to connect',
    ]) {
      expect(isDatabaseUnavailable(new Error('wrapped', { cause: new Error(message) }))).toBe(true);
    }
  });

  it('leaves real failures alone', () => {
    expect(isDatabaseUnavailable({ code: 'P2002', message: 'Unique constraint failed' })).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
