// The update-branch tracker against the real Redis: work it starts outlives its caller, runs once per user and pull
// request at a time, and its outcome is shown exactly once.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { DomainError } from '@cairn/contracts';
import { PullUpdateTracker } from './pull-update.tracker.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = `cairn-it-pull-update-${randomUUID().slice(0, 8)}`;
const tracker = new PullUpdateTracker(() => redis, prefix);
const describeFailure = (err: unknown) => (err instanceof DomainError ? err.message : 'internal error');

function gate(): { promise: Promise<void>; open: () => void; fail: (e: unknown) => void } {
  let open!: () => void;
  let fail!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((open = res), (fail = rej)));
  return { promise, open, fail };
}

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

describe('PullUpdateTracker', () => {
  it('shows a running update, refuses a second one, then shows the outcome once', async () => {
    const key = { repoId: 1, index: 2, userId: 3 };
    const work = gate();
    const first = await tracker.start(key, 'merge', () => work.promise, describeFailure);
    expect(first.started).toBe(true);
    expect((await tracker.take(key))?.state).toBe('running');
    expect((await tracker.take(key))?.state).toBe('running'); // running is not consumed
    expect((await tracker.start(key, 'rebase', () => Promise.resolve(), describeFailure)).started).toBe(false);

    work.open();
    expect(await first.done).toMatchObject({ state: 'done', ok: true, style: 'merge' });
    expect(await tracker.peek(key)).toMatchObject({ state: 'done', ok: true });
    expect(await tracker.take(key)).toMatchObject({ state: 'done', ok: true });
    expect(await tracker.take(key)).toBeNull();
  });

  it('keeps a failure with its message, per user', async () => {
    const key = { repoId: 1, index: 2, userId: 4 };
    const work = gate();
    const started = await tracker.start(key, 'rebase', () => work.promise, describeFailure);
    expect(await tracker.take({ ...key, userId: 5 })).toBeNull();
    work.fail(DomainError.conflict('the head branch has conflicts with the base'));
    await started.done;
    expect(await tracker.take(key)).toMatchObject({ state: 'done', ok: false, message: 'the head branch has conflicts with the base' });
  });

  it('never shows an internal error message', async () => {
    const key = { repoId: 9, index: 1, userId: 1 };
    const started = await tracker.start(key, 'merge', () => Promise.reject(new Error('secret path /srv/x')), describeFailure);
    await started.done;
    expect(await tracker.take(key)).toMatchObject({ ok: false, message: 'internal error' });
  });
});
