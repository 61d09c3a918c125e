import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Queues } from '@cairn/contracts';
import { COMMON_SETTINGS, createWorker, type CommonSettings, type TypedWorker } from '@cairn/platform';
import { WORKER_SETTINGS, type WorkerSettings } from '../config/worker-settings.js';
import { MergeCheckService, type JobOutcome } from './merge-check.service.js';

/** A job whose process dies is rerun elsewhere by BullMQ's stalled-job check once its lock expires. */
@Injectable()
export class MergeCheckProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MergeCheckProcessor');
  private worker?: TypedWorker<typeof Queues.mergeCheck, JobOutcome>;

  constructor(
    private readonly checks: MergeCheckService,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
    @Inject(WORKER_SETTINGS) private readonly settings: WorkerSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.worker = createWorker(
      Queues.mergeCheck,
      (job) => this.checks.process(job.data),
      {
        connection: { url: this.common.redisUrl, maxRetriesPerRequest: null },
        prefix: this.common.queuePrefix,
        concurrency: this.settings.concurrency,
        lockDuration: this.settings.lockDurationMs,
        stalledInterval: this.settings.stalledIntervalMs,
        maxStalledCount: 2,
      },
    );
    this.worker.on('failed', (job, err) =>
      this.logger.warn(`check ${job?.id ?? '?'} failed (attempt ${job?.attemptsMade ?? '?'}): ${err.message}`),
    );
    this.worker.on('error', (err) => this.logger.warn(`merge-check worker: ${err.message}`));
    this.logger.log(`merge-check worker started (concurrency ${this.settings.concurrency})`);
  }

  async onApplicationShutdown(): Promise<void> {
    // Lets running checks finish; queued ones stay in Redis for the other replicas or the next start.
    await this.worker?.close().catch(() => undefined);
  }
}
