import { describe, expect, it } from 'vitest';
import { LastUsedThrottle, UsageRecorder } from './last-used-throttle.js';

function fakeClock(start = 1_000_000) {
  const clock = { t: start, now: () => clock.t };
  return clock;
}

describe('LastUsedThrottle', () => {
  it('allows one write per id per window', () => {
    const clock = fakeClock();
    const throttle = new LastUsedThrottle(60_000, clock.now);
    expect(throttle.claim(1)).toBe(true);
    expect(throttle.claim(1)).toBe(false);
    expect(throttle.claim(2)).toBe(true);
    clock.t += 59_999;
    expect(throttle.claim(1)).toBe(false);
    clock.t += 1;
    expect(throttle.claim(1)).toBe(true);
    expect(throttle.claim(1)).toBe(false);
  });

  it('writes on every use when the interval is 0', () => {
    const throttle = new LastUsedThrottle(0, fakeClock().now);
    expect([throttle.claim(1), throttle.claim(1), throttle.claim(1)]).toEqual([true, true, true]);
    expect(throttle.size).toBe(0);
  });

  it('lets a failed write be retried at once', () => {
    const throttle = new LastUsedThrottle(60_000, fakeClock().now);
    expect(throttle.claim(7)).toBe(true);
    throttle.release(7);
    expect(throttle.claim(7)).toBe(true);
  });

  it('stays bounded: expired entries are pruned, then the oldest', () => {
    const clock = fakeClock();
    const throttle = new LastUsedThrottle(1_000, clock.now, 3);
    for (const id of [1, 2, 3]) throttle.claim(id);
    clock.t += 1_000;
    throttle.claim(4);
    expect(throttle.size).toBe(1); // 1, 2 and 3 had expired
    for (const id of [5, 6, 7, 8]) throttle.claim(id); // none expired: the oldest go
    expect(throttle.size).toBe(3);
    expect(throttle.claim(8)).toBe(false);
    expect(throttle.claim(4)).toBe(true); // evicted, so claimable again (the DB condition still guards)
  });
});

describe('UsageRecorder', () => {
  it('fires at most one write per window, without waiting for it, and counts skips', async () => {
    const clock = fakeClock();
    const writes: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const recorder = new UsageRecorder(
      new LastUsedThrottle(60_000, clock.now),
      async (id) => {
        await gate;
        writes.push(id);
      },
      () => undefined,
    );
    recorder.record(1); // returns immediately although the write is blocked
    recorder.record(1);
    recorder.record(1);
    expect(recorder.writes).toBe(1);
    expect(recorder.skipped).toBe(2);
    release();
    await recorder.settle();
    expect(writes).toEqual([1]);
    clock.t += 60_000;
    recorder.record(1);
    await recorder.settle();
    expect(writes).toEqual([1, 1]);
  });

  it('reports a failed write instead of throwing, and retries on the next use', async () => {
    const errors: number[] = [];
    let fail = true;
    const recorder = new UsageRecorder(
      new LastUsedThrottle(60_000, fakeClock().now),
      async () => {
        if (fail) throw new Error('db down');
      },
      (id) => errors.push(id),
    );
    recorder.record(3);
    await recorder.settle();
    expect(errors).toEqual([3]);
    fail = false;
    recorder.record(3);
    await recorder.settle();
    expect(recorder.writes).toBe(2);
    expect(errors).toEqual([3]);
  });
});
