import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Queues } from '@cairn/contracts';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { Queue, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';

/** The job data: ids only; the worker reloads everything. */
export interface DeliveryJobData {
  deliveryId: number;
}

/** BullMQ job id of one attempt (`:` is not allowed in custom ids). */
export function deliveryJobId(deliveryId: number, attempt: number): string {
  return `d${deliveryId}-a${attempt}`;
}

/** Parses {@link deliveryJobId}. */
export function parseDeliveryJobId(jobId: string | undefined): { deliveryId: number; attempt: number } | null {
  const m = /^d(\d+)-a(\d+)$/.exec(jobId ?? '');
  return m ? { deliveryId: Number(m[1]), attempt: Number(m[2]) } : null;
}

const JOB_OPTIONS: JobsOptions = {
  // Infrastructure failures (database down) are retried by BullMQ; HTTP failures are handled by the delivery row.
  attempts: 8,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { age: 3_600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3_600 },
};

/** Creates the Redis connection BullMQ needs (workers require `maxRetriesPerRequest: null`). */
export function bullConnection(redisUrl: string): Redis {
  return new Redis(redisUrl, { maxRetriesPerRequest: null });
}

/** The delivery queue: one job per attempt, id `d<delivery>-a<attempt>`, so enqueueing twice is harmless. */
@Injectable()
export class DeliveryQueue implements OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryQueue');
  readonly queue: Queue<DeliveryJobData>;
  private readonly connection: Redis;

  constructor(@Inject(COMMON_SETTINGS) settings: CommonSettings) {
    this.connection = bullConnection(settings.redisUrl);
    this.queue = new Queue<DeliveryJobData>(Queues.webhookDelivery, {
      connection: this.connection,
      prefix: settings.queuePrefix,
      defaultJobOptions: JOB_OPTIONS,
    });
  }

  /** Enqueues attempts (a delay for retries). */
  async enqueue(items: Array<{ deliveryId: number; attempt: number; delayMs?: number }>): Promise<void> {
    if (!items.length) return;
    for (let i = 0; i < items.length; i += 500) {
      await this.queue.addBulk(
        items.slice(i, i + 500).map((it) => ({
          name: 'deliver',
          data: { deliveryId: it.deliveryId },
          opts: { jobId: deliveryJobId(it.deliveryId, it.attempt), delay: it.delayMs && it.delayMs > 0 ? it.delayMs : undefined },
        })),
      );
    }
  }

  /**
   * Makes sure the attempt's job exists and will run: adds it when missing; replaces it when it already ended
   * (completed or failed) while the delivery still waits. The worker's claim makes a spare run harmless.
   */
  async ensure(deliveryId: number, attempt: number): Promise<'exists' | 'added' | 'replaced'> {
    const id = deliveryJobId(deliveryId, attempt);
    const job = await this.queue.getJob(id);
    if (job) {
      const state = await job.getState();
      if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return 'exists';
      await job.remove().catch((err: Error) => this.logger.warn(`cannot remove ended job ${id}: ${err.message}`));
      await this.enqueue([{ deliveryId, attempt }]);
      return 'replaced';
    }
    await this.enqueue([{ deliveryId, attempt }]);
    return 'added';
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.connection.disconnect();
  }
}
