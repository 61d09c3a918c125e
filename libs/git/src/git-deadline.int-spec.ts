/** Issue 9, item 11: a passed deadline stops long git reads, and the caller gets TIMEOUT, not an internal error. */
import { ErrorCode } from '@cairn/contracts';
import { describe, expect, it } from 'vitest';
import { currentRpcDeadline, DomainErrorFilter, rpcDeadlineSignal, withRpcDeadline } from '@cairn/platform';
import { runGit } from './git-process.js';

describe('rpcDeadlineSignal', () => {
  it('is absent outside a request with a deadline', () => {
    expect(currentRpcDeadline()).toBeUndefined();
    expect(rpcDeadlineSignal()).toBeUndefined();
  });

  it('stops a git process once the deadline has passed, and the failure maps to TIMEOUT', async () => {
    await withRpcDeadline(Date.now() - 1, async () => {
      const signal = rpcDeadlineSignal()!;
      expect(signal.aborted).toBe(true);
      const err = await runGit(null, ['version'], { signal }).then(() => null, (e: unknown) => e);
      expect(String((err as Error)?.message)).toMatch(/aborted/);
      expect(new DomainErrorFilter().toEnvelope(err)).toMatchObject({ code: ErrorCode.TIMEOUT });
    });
  });

  it('leaves a git process alone while the deadline is ahead', async () => {
    await withRpcDeadline(Date.now() + 60_000, async () => {
      const run = await runGit(null, ['version'], { signal: rpcDeadlineSignal() });
      expect(run.code).toBe(0);
      expect(new DomainErrorFilter().toEnvelope(new Error('boom'))).toMatchObject({ code: ErrorCode.INTERNAL });
    });
  });
});
