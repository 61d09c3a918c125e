import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Queues } from '@cairn/contracts';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { HOOKS_SETTINGS, type HooksSettings } from '../config/hooks-settings.js';
import { DeliveryAttemptService } from './delivery-attempt.service.js';
import { bullConnection, parseDeliveryJobId, type DeliveryJobData } from './delivery-queue.js';

/**
 * The BullMQ worker of the delivery queue. A job is one attempt (`d<id>-a<n>`); a crashed worker's active jobs
 * come back after their lock expires (stalled-job check) and the expired claim lets the attempt run again.
 */
@Injectable()
export class DeliveryProcessor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DeliveryProcessor');
  private worker?: Worker<DeliveryJobData>;
  private connection?: Redis;

  constructor(
    private readonly attempts: DeliveryAttemptService,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
    @Inject(HOOKS_SETTINGS) private readonly settings: HooksSettings,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.settings.deliveryWorker) return;
    this.connection = bullConnection(this.common.redisUrl);
    this.worker = new Worker<DeliveryJobData>(Queues.webhookDelivery, (job) => this.process(job), {
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

  private async process(job: Job<DeliveryJobData>): Promise<string> {
    const parsed = parseDeliveryJobId(job.id);
    if (!parsed || parsed.deliveryId !== job.data.deliveryId) return 'ignored';
    return this.attempts.run(parsed.deliveryId, parsed.attempt);
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.close().catch(() => undefined);
    this.connection?.disconnect();
  }
}
