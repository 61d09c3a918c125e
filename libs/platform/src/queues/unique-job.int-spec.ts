import { randomBytes } from 'node:crypto';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUniqueJob } from './unique-job.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const connection = { url: REDIS_URL, maxRetriesPerRequest: null };
const prefix = `cairn-test-${randomBytes(4).toString('hex')}`;
type WorkData = { n: number; fail?: boolean };

describe('addUniqueJob (real Redis)', () => {
  let queue: Queue<WorkData>;
  let events: QueueEvents;

  beforeAll(async () => {
    queue = new Queue('unique', { connection, prefix });
    events = new QueueEvents('unique', { connection, prefix });
    await events.waitUntilReady();
  });

  afterAll(async () => {
    await queue.obliterate({ force: true }).catch(() => undefined);
    await events.close();
    await queue.close();
  });

  const keep = { removeOnComplete: { age: 3600 }, removeOnFail: { age: 3600 } };

  it('adds once while the job waits', async () => {
    expect(await addUniqueJob(queue, 'work', { n: 1 }, { jobId: 'a', ...keep })).toBe(true);
    expect(await addUniqueJob(queue, 'work', { n: 2 }, { jobId: 'a', ...keep })).toBe(false);
    expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
    expect((await queue.getJob('a'))?.data).toEqual({ n: 1 });
  });

  it('adds again once the kept job has finished, completed or failed — where a plain add is a no-op', async () => {
    const seen: number[] = [];
    const worker = new Worker<WorkData>(
      'unique',
      async (job) => {
        seen.push(job.data.n);
        if (job.data.fail) throw new Error('failing on purpose');
      },
      { connection, prefix },
    );
    try {
      await queue.add('work', { n: 10 }, { jobId: 'b', ...keep });
      await events.waitUntilReady();
      const done = await queue.getJob('b');
      await done!.waitUntilFinished(events);
      expect(await queue.getJobState('b')).toBe('completed');

      // What BullMQ does by itself: nothing.
      await queue.add('work', { n: 11 }, { jobId: 'b', ...keep });
      expect(await queue.getJobState('b')).toBe('completed');

      expect(await addUniqueJob(queue, 'work', { n: 12 }, { jobId: 'b', ...keep })).toBe(true);
      await (await queue.getJob('b'))!.waitUntilFinished(events);
      expect(seen).toEqual([1, 10, 12]);

      await addUniqueJob(queue, 'work', { n: 20, fail: true }, { jobId: 'c', ...keep });
      await expect((await queue.getJob('c'))!.waitUntilFinished(events)).rejects.toThrow(/on purpose/);
      expect(await queue.getJobState('c')).toBe('failed');
      expect(await addUniqueJob(queue, 'work', { n: 21 }, { jobId: 'c', ...keep })).toBe(true);
      await (await queue.getJob('c'))!.waitUntilFinished(events);
      expect(seen).toEqual([1, 10, 12, 20, 21]);
    } finally {
      await worker.close();
    }
  });
});
