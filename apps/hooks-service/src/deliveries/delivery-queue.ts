import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Queues, type DeliveryJobData } from '@cairn/contracts';
import { COMMON_SETTINGS, createQueue, jobNameOf, type CommonSettings, type TypedQueue } from '@cairn/platform';
import type { JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';

// First attempts of an event go in groups (`floor(id / size)`): BullMQ's Redis work is per job, small groups still
// spread a fan-out over every instance, and any row finds its group again (the sweeper's case).
export const FIRST_ATTEMPTS_PER_JOB = 8;

export interface DeliveryJob {
  jobId: string;
  deliveryIds: number[];
  attempt: number;
}

export interface AttemptToEnqueue {
  deliveryId: number;
  attempt: number;
  delayMs?: number;
}

/** BullMQ job id of one attempt of one delivery (`:` is not allowed in custom ids). */
export function deliveryJobId(deliveryId: number, attempt: number): string {
  return `d${deliveryId}-a${attempt}`;
}

export function firstAttemptsJobId(eventId: string, group: number): string {
  return `e${eventId}-g${group}`;
}

/** The job an attempt belongs to: the event's group for a first attempt of an event's delivery, else its own. */
export function jobIdOf(delivery: { id: number; eventId: string | null }, attempt: number): string {
  return attempt === 1 && delivery.eventId
    ? firstAttemptsJobId(delivery.eventId, Math.floor(delivery.id / FIRST_ATTEMPTS_PER_JOB))
    : deliveryJobId(delivery.id, attempt);
}

export interface PlannedJob {
  jobId: string;
  data: DeliveryJobData;
  delayMs?: number;
}

export function planJobs(attempts: Array<{ id: number; eventId: string | null; attempt: number }>): PlannedJob[] {
  const grouped = new Map<string, number[]>();
  const jobs: PlannedJob[] = [];
  for (const a of attempts) {
    const jobId = jobIdOf(a, a.attempt);
    if (a.attempt !== 1 || !a.eventId) {
      jobs.push({ jobId, data: { deliveryId: a.id } });
      continue;
    }
    const ids = grouped.get(jobId);
    if (ids) ids.push(a.id);
    else grouped.set(jobId, [a.id]);
  }
  for (const [jobId, deliveryIds] of grouped) jobs.push({ jobId, data: { deliveryIds } });
  return jobs;
}

/** Reads a job back (its id and data must agree); null for anything else. */
export function parseDeliveryJob(jobId: string | undefined, data: unknown): DeliveryJob | null {
  const single = /^d(\d+)-a(\d+)$/.exec(jobId ?? '');
  if (single) {
    const deliveryId = Number(single[1]);
    return (data as { deliveryId?: unknown } | null)?.deliveryId === deliveryId
      ? { jobId: jobId!, deliveryIds: [deliveryId], attempt: Number(single[2]) }
      : null;
  }
  if (!/^e[0-9a-f-]{36}-g\d+$/.test(jobId ?? '')) return null;
  const ids = (data as { deliveryIds?: unknown } | null)?.deliveryIds;
  if (!Array.isArray(ids) || !ids.length || !ids.every((id) => Number.isSafeInteger(id) && (id as number) > 0)) return null;
  return { jobId: jobId!, deliveryIds: ids as number[], attempt: 1 };
}

const JOB_OPTIONS: JobsOptions = {
  // Infrastructure failures (database down) are retried by BullMQ; HTTP failures are handled by the delivery row.
  attempts: 8,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { age: 3_600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3_600 },
};

/** Jobs per `addBulk` call (one Redis transaction each). */
const ADD_CHUNK = 500;

/** Creates the Redis connection BullMQ needs (workers require `maxRetriesPerRequest: null`). */
export function bullConnection(redisUrl: string): Redis {
  return new Redis(redisUrl, { maxRetriesPerRequest: null });
}

/** The delivery queue. Job ids are derived from what they run, so enqueueing twice is harmless. */
@Injectable()
export class DeliveryQueue implements OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryQueue');
  readonly queue: TypedQueue<typeof Queues.webhookDelivery>;
  private readonly connection: Redis;

  constructor(@Inject(COMMON_SETTINGS) settings: CommonSettings) {
    this.connection = bullConnection(settings.redisUrl);
    this.queue = createQueue(Queues.webhookDelivery, {
      connection: this.connection,
      prefix: settings.queuePrefix,
      defaultJobOptions: JOB_OPTIONS,
    });
  }

  async enqueue(items: AttemptToEnqueue[]): Promise<void> {
    await this.add(
      items.map((it) => ({
        jobId: deliveryJobId(it.deliveryId, it.attempt),
        data: { deliveryId: it.deliveryId },
        delayMs: it.delayMs,
      })),
    );
  }

  async enqueueFirstAttempts(eventId: string, deliveryIds: number[]): Promise<void> {
    await this.add(planJobs(deliveryIds.map((id) => ({ id, eventId, attempt: 1 }))));
  }

  private async add(jobs: PlannedJob[]): Promise<void> {
    for (let i = 0; i < jobs.length; i += ADD_CHUNK) {
      await this.queue.addBulk(
        jobs.slice(i, i + ADD_CHUNK).map((j) => ({
          name: jobNameOf(Queues.webhookDelivery),
          data: j.data,
          opts: { jobId: j.jobId, delay: j.delayMs && j.delayMs > 0 ? j.delayMs : undefined },
        })),
      );
    }
  }

  /** Adds a missing job, or replaces an ended one a delivery still waits for; the claim makes a spare run harmless. */
  async ensure(job: PlannedJob): Promise<'exists' | 'added' | 'replaced'> {
    const existing = await this.queue.getJob(job.jobId);
    if (existing) {
      const state = await existing.getState();
      if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return 'exists';
      await existing.remove().catch((err: Error) => this.logger.warn(`cannot remove ended job ${job.jobId}: ${err.message}`));
      await this.add([job]);
      return 'replaced';
    }
    await this.add([job]);
    return 'added';
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.connection.disconnect();
  }
}
