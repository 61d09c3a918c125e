import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import {
  MERGE_CHECK_JOB, MERGE_CHECK_URGENT_PRIORITY, Queues, mergeCheckJobId, type MergeCheckJobData,
} from '@cairn/contracts';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { Queue } from 'bullmq';

/** How long finished jobs are kept: while kept, adding the same id again is a no-op (never twice). */
const KEEP_FINISHED_SECONDS = 24 * 3600;

/** The worker's producer side of the merge-check queue (checks queued because of pushes). */
@Injectable()
export class MergeCheckQueue implements OnModuleDestroy {
  private readonly logger = new Logger('MergeCheckQueue');
  readonly queue: Queue<MergeCheckJobData>;

  constructor(@Inject(COMMON_SETTINGS) settings: CommonSettings) {
    this.queue = new Queue<MergeCheckJobData>(Queues.mergeCheck, {
      connection: { url: settings.redisUrl, maxRetriesPerRequest: null },
      prefix: settings.queuePrefix,
    });
    this.queue.on('error', (err) => this.logger.warn(`merge-check queue: ${err.message}`));
  }

  /**
   * One job per pull request and commit pair (the same rule as repo-service): a second add returns the existing job;
   * a finished one for the same pair is replaced.
   */
  async enqueue(data: MergeCheckJobData, priority = MERGE_CHECK_URGENT_PRIORITY): Promise<string> {
    const jobId = mergeCheckJobId(data.pullId, data.baseSha, data.headSha);
    const add = () =>
      this.queue.add(MERGE_CHECK_JOB, data, {
        jobId,
        priority,
        attempts: 3,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: { age: KEEP_FINISHED_SECONDS },
        removeOnFail: { age: KEEP_FINISHED_SECONDS },
      });
    const job = await add();
    if (job.finishedOn) {
      await job.remove().catch(() => undefined);
      await add();
    }
    return jobId;
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}
