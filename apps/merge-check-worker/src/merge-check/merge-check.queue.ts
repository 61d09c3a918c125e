import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import {
  MERGE_CHECK_URGENT_PRIORITY, Queues, mergeCheckJobOptions, type MergeCheckJobData,
} from '@cairn/contracts';
import {
  COMMON_SETTINGS, addUniqueJob, createQueue, jobNameOf, type CommonSettings, type TypedQueue,
} from '@cairn/platform';

/** The worker's producer side of the merge-check queue (checks queued because of pushes). */
@Injectable()
export class MergeCheckQueue implements OnModuleDestroy {
  private readonly logger = new Logger('MergeCheckQueue');
  readonly queue: TypedQueue<typeof Queues.mergeCheck>;

  constructor(@Inject(COMMON_SETTINGS) settings: CommonSettings) {
    this.queue = createQueue(Queues.mergeCheck, {
      connection: { url: settings.redisUrl, maxRetriesPerRequest: null },
      prefix: settings.queuePrefix,
    });
    this.queue.on('error', (err) => this.logger.warn(`merge-check queue: ${err.message}`));
  }

  /** One job per pull request and commit pair while it waits or runs; a new one once it finished (`addUniqueJob`). */
  async enqueue(data: MergeCheckJobData, priority = MERGE_CHECK_URGENT_PRIORITY): Promise<string> {
    const options = mergeCheckJobOptions(data, priority);
    await addUniqueJob(this.queue, jobNameOf(Queues.mergeCheck), data, options);
    return options.jobId;
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}
