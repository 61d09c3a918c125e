// Why merge-check-worker's ScaledObject reads a Prometheus query and not KEDA's Redis list scaler: merge-check jobs
// carry a BullMQ priority, and BullMQ keeps prioritized jobs in `<prefix>:<queue>:prioritized` (a sorted set), not in
// the `<prefix>:<queue>:wait` list the list scaler measures with LLEN. Against the real Redis and BullMQ.
import { randomBytes } from 'node:crypto';
import { MERGE_CHECK_URGENT_PRIORITY, Queues, mergeCheckJobOptions, type MergeCheckJobData } from '@cairn/contracts';
import { jobNameOf } from '@cairn/platform';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDERINGS, render } from './render.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('merge-check queue keys in Redis', () => {
  const prefix = `cairn-k8s-${randomBytes(4).toString('hex')}`;
  let queue: Queue;
  let redis: Redis;
  beforeAll(() => {
    queue = new Queue(Queues.mergeCheck, { connection: { url: REDIS_URL }, prefix });
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    redis.disconnect();
  });

  it('holds a queued check in the prioritized set, with the wait list empty', async () => {
    const data: MergeCheckJobData = { pullId: 1, repoId: 1, baseSha: 'a'.repeat(40), headSha: 'b'.repeat(40) };
    await queue.add(jobNameOf(Queues.mergeCheck), data, mergeCheckJobOptions(data, MERGE_CHECK_URGENT_PRIORITY));
    expect(await redis.llen(`${prefix}:${Queues.mergeCheck}:wait`)).toBe(0);
    expect(await redis.zcard(`${prefix}:${Queues.mergeCheck}:prioritized`)).toBe(1);
    // The state the ScaledObject's query counts.
    expect(await queue.getJobCounts('prioritized', 'wait')).toEqual({ prioritized: 1, wait: 0 });
  });

  it.each(RENDERINGS)('%s scales the worker on a query that counts prioritized jobs', (dir) => {
    const scaled = render(dir).find((o) => o.kind === 'ScaledObject')!;
    const triggers: { type: string; metadata: { query?: string; listName?: string } }[] = scaled.spec.triggers;
    expect(triggers.some((t) => t.type === 'redis' && t.metadata.listName?.endsWith(':wait'))).toBe(false);
    expect(triggers.find((t) => t.type === 'prometheus')?.metadata.query).toMatch(/state=~"[^"]*\bprioritized\b/);
  });
});
