/** Bounded retries with a dead-letter path (issue 9, item 12), on a real nats-server and a real Redis. */
import { randomBytes } from 'node:crypto';
import { Queues } from '@cairn/contracts';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateNats, type PrivateNats } from '../../../../test/support/integration.js';
import { waitFor as until } from '../../../../test/support/wait.js';
import { deadLetterCount } from '../metrics/dead-letters.js';
import { createWorker } from '../queues/typed-queue.js';
import { connectNats, consumeEvents, ensureEventsStream, eventRetryDelayMs, EVENT_MAX_RETRY_DELAY_MS, publishEvent } from './jetstream.js';
import { eventEnvelope } from './outbox.js';

let nats: PrivateNats;
let nc: NatsConnection;

beforeAll(async () => {
  nats = await startPrivateNats();
  nc = await connectNats(nats.url, 'dead-letter-it');
  await ensureEventsStream(nc);
});

afterAll(async () => {
  await nc?.close();
  await nats?.stop();
});

describe('consumeEvents', () => {
  it('retries with a growing, capped delay', () => {
    expect(eventRetryDelayMs(1, 2_000)).toBe(2_000);
    expect(eventRetryDelayMs(2, 2_000)).toBe(4_000);
    expect(eventRetryDelayMs(50, 2_000)).toBe(EVENT_MAX_RETRY_DELAY_MS);
  });

  it('dead-letters an event that fails maxDeliver times and goes on with the others', async () => {
    const durable = 'dead-letter-probe';
    const before = await deadLetterCount('event', durable);
    const poison = eventEnvelope('repo.evt.probe.made', { poison: true });
    const good = [1, 2, 3].map((n) => eventEnvelope('repo.evt.probe.made', { n }));
    const calls = new Map<string, number>();
    const handled: string[] = [];
    const stop = await consumeEvents(nc, {
      durable,
      subjects: ['repo.evt.>'],
      retryDelayMs: 10,
      maxDeliver: 3,
      handle: async (event) => {
        calls.set(event.id, (calls.get(event.id) ?? 0) + 1);
        if ((event.data as { poison?: boolean }).poison) throw new Error('cannot handle this one');
        handled.push(event.id);
      },
    });
    try {
      const js = jetstream(nc);
      await publishEvent(js, good[0]);
      await publishEvent(js, poison);
      await publishEvent(js, good[1]);
      await publishEvent(js, good[2]);
      await until(async () => (await deadLetterCount('event', durable)) === before + 1, 'the dead letter');
      await until(() => handled.length === 3, 'the other events');
      expect(calls.get(poison.id)).toBe(3);
      expect(handled).toEqual(good.map((e) => e.id));
      const jsm = await jetstreamManager(nc);
      const info = await until(async () => {
        const i = await jsm.consumers.info('CAIRN_EVENTS', durable);
        return i.num_ack_pending === 0 && i.num_pending === 0 ? i : null;
      }, 'nothing pending');
      expect(info.config.max_deliver).toBe(3);
    } finally {
      await stop();
    }
  });
});

describe('createWorker', () => {
  const connection = { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', maxRetriesPerRequest: null };
  const prefix = `cairn-test-${randomBytes(4).toString('hex')}`;

  it('counts a job that failed its last attempt as a dead letter, and only then', async () => {
    const queue = new Queue(Queues.mergeCheck, { connection, prefix });
    const events = new QueueEvents(Queues.mergeCheck, { connection, prefix });
    const before = await deadLetterCount('job', Queues.mergeCheck);
    let runs = 0;
    const worker = createWorker(
      Queues.mergeCheck,
      async () => {
        runs++;
        throw new Error('always failing');
      },
      { connection, prefix },
    );
    try {
      await events.waitUntilReady();
      const job = await queue.add('check', { pullId: 1 } as never, { jobId: 'dl-1', attempts: 3, backoff: { type: 'fixed', delay: 10 } });
      await job.waitUntilFinished(events).catch(() => undefined);
      await until(async () => (await deadLetterCount('job', Queues.mergeCheck)) === before + 1, 'the dead letter');
      expect(runs).toBe(3);
      expect(await queue.getJobState('dl-1')).toBe('failed');
    } finally {
      await worker.close();
      await queue.obliterate({ force: true }).catch(() => undefined);
      await events.close();
      await queue.close();
    }
  });
});
