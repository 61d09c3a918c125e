import { randomBytes } from 'node:crypto';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformMetrics } from '../metrics/dead-letters.js';
import { queueJobDuration } from '../metrics/cairn-metrics.js';
import { registeredReadinessChecks } from '../ops/readiness.js';
import { watchQueueDepth, watchWorker } from './queue-metrics.js';
import { waitFor } from '../../../../test/support/wait.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const connection = { url: REDIS_URL, maxRetriesPerRequest: null };
const prefix = `cairn-test-${randomBytes(4).toString('hex')}`;
const name = `metrics-${randomBytes(3).toString('hex')}`;

async function depth(state: string): Promise<number | undefined> {
  const text = await platformMetrics.getSingleMetricAsString('cairn_queue_jobs');
  const line = text.split('\n').find((l) => l.startsWith(`cairn_queue_jobs{queue="${name}",state="${state}"`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

async function durations(outcome: string): Promise<number> {
  const { values } = await queueJobDuration.get();
  return values.find((v) => v.metricName === 'cairn_queue_job_duration_seconds_count' && v.labels.queue === name && v.labels.outcome === outcome)?.value ?? 0;
}

describe('queue metrics (real Redis)', () => {
  let queue: Queue;
  let events: QueueEvents;

  beforeAll(async () => {
    queue = new Queue(name, { connection, prefix });
    watchQueueDepth(name, queue);
    events = new QueueEvents(name, { connection, prefix });
    await events.waitUntilReady();
  });

  afterAll(async () => {
    await queue.obliterate({ force: true }).catch(() => undefined);
    await events.close();
    await queue.close();
  });

  it('reports the depth by state at scrape time and registers the queue’s Redis for readiness', async () => {
    await queue.add('work', { fail: false }, { delay: 60_000 });
    await queue.add('work', { fail: false });
    expect(await depth('wait')).toBe(1);
    expect(await depth('delayed')).toBe(1);
    const check = registeredReadinessChecks().find((c) => c.name === `redis:${name}`);
    expect(await check?.check()).toBe(true);
  });

  it('times completed and failed jobs, and counts the worker ready only while it runs', async () => {
    await queue.drain(true);
    const options = { connection, prefix };
    const worker = new Worker(name, async (job) => {
      if (job.data.fail) throw new Error('told to fail');
    }, options);
    watchWorker(name, worker, options);
    const ok = await queue.add('work', { fail: false });
    const bad = await queue.add('work', { fail: true });
    await ok.waitUntilFinished(events);
    await expect(bad.waitUntilFinished(events)).rejects.toThrow(/told to fail/);
    // The worker's own events follow the ones QueueEvents delivers.
    await waitFor(async () => (await durations('completed')) === 1 && (await durations('failed')) === 1, 'both jobs timed');
    const check = () => registeredReadinessChecks().find((c) => c.name === `queue-worker:${name}`);
    expect(await check()?.check()).toBe(true);
    await worker.close();
    expect(check()).toBeUndefined();
    expect(await depth('wait')).toBe(0);
  });
});
