import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Queues, type QueueJobData } from '@cairn/contracts';
import { COMMON_SETTINGS, createWorker, type CommonSettings, type TypedWorker } from '@cairn/platform';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { HOOKS_SETTINGS, type HooksSettings } from '../config/hooks-settings.js';
import { DeliveryAttemptService } from './delivery-attempt.service.js';
import { bullConnection, parseDeliveryJob } from './delivery-queue.js';

// A crashed worker's jobs come back once their lock expires; the expired claims let their attempts run again.
@Injectable()
export class DeliveryProcessor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DeliveryProcessor');
  private worker?: TypedWorker<typeof Queues.webhookDelivery, string>;
  private connection?: Redis;

  constructor(
    private readonly attempts: DeliveryAttemptService,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
    @Inject(HOOKS_SETTINGS) private readonly settings: HooksSettings,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.settings.deliveryWorker) return;
    this.connection = bullConnection(this.common.redisUrl);
    this.worker = createWorker(Queues.webhookDelivery, (job) => this.process(job), {
      connection: this.connection,
      prefix: this.common.queuePrefix,
      concurrency: this.settings.deliverConcurrency,
      lockDuration: 15_000,
      stalledInterval: 10_000,
      maxStalledCount: 5,
    });
    this.worker.on('failed', (job, err) => this.logger.warn(`job ${job?.id} failed: ${err.message}`));
    this.worker.on('error', (err) => this.logger.warn(`worker: ${err.message}`));
  }

  private async process(job: Job<QueueJobData<typeof Queues.webhookDelivery>>): Promise<string> {
    const parsed = parseDeliveryJob(job.id, job.data);
    if (!parsed) return 'ignored';
    const outcomes = await Promise.allSettled(parsed.deliveryIds.map((id) => this.attempts.run(id, parsed.attempt)));
    // An infrastructure failure (database down) fails the job, so BullMQ runs it again; what was done is skipped then.
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
    const counts = new Map<string, number>();
    for (const o of outcomes as PromiseFulfilledResult<string>[]) counts.set(o.value, (counts.get(o.value) ?? 0) + 1);
    return [...counts].map(([outcome, n]) => (n > 1 ? `${outcome} ×${n}` : outcome)).join(', ');
  }

  async onModuleDestroy(): Promise<void> {
    // Attempts still waiting for their turn are not started; their jobs fail and BullMQ runs them again elsewhere.
    this.attempts.stopStarting();
    await this.worker?.close().catch(() => undefined);
    this.connection?.disconnect();
  }
}
