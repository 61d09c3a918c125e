import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import {
  MERGE_CHECK_JOB, MERGE_CHECK_URGENT_PRIORITY, Queues, mergeCheckJobId, type MergeCheckJobData,
} from '@cairn/contracts';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { Queue } from 'bullmq';

/** How long finished check jobs are kept: while kept, adding the same id again is a no-op (never twice). */
export const MERGE_CHECK_KEEP_FINISHED_SECONDS = 24 * 3600;

/**
 * repo-service's producer side of the merge-check queue. repo-service adds jobs itself (PR creation, views, merges,
 * branch updates) rather than asking the worker over NATS: adding is one Redis round trip, works while every worker
 * is down or busy (the job waits in Redis), and the job id makes concurrent adds collapse into one job.
 */
@Injectable()
export class MergeCheckQueue implements OnModuleDestroy {
  private readonly logger = new Logger('MergeCheckQueue');
  private readonly queue: Queue<MergeCheckJobData>;

  constructor(@Inject(COMMON_SETTINGS) settings: CommonSettings) {
    this.queue = new Queue<MergeCheckJobData>(Queues.mergeCheck, {
      connection: { url: settings.redisUrl, maxRetriesPerRequest: null },
      prefix: settings.queuePrefix,
    });
    this.queue.on('error', (err) => this.logger.warn(`merge-check queue: ${err.message}`));
  }

  /**
   * Queues the check of one pull request for one commit pair — at most one job per pair: adding again while the job
   * waits or runs returns that job. A job for the pair that already finished (the pull request went back to
   * commits checked before, or the job failed for good) is replaced, since someone needs a current answer.
   */
  async enqueue(data: MergeCheckJobData, priority = MERGE_CHECK_URGENT_PRIORITY): Promise<string> {
    const jobId = mergeCheckJobId(data.pullId, data.baseSha, data.headSha);
    const job = await this.add(jobId, data, priority);
    if (job.finishedOn) {
      await job.remove().catch(() => undefined);
      await this.add(jobId, data, priority);
    }
    return jobId;
  }

  private add(jobId: string, data: MergeCheckJobData, priority: number) {
    return this.queue.add(MERGE_CHECK_JOB, data, {
      jobId,
      priority,
      attempts: 3,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: { age: MERGE_CHECK_KEEP_FINISHED_SECONDS },
      removeOnFail: { age: MERGE_CHECK_KEEP_FINISHED_SECONDS },
    });
  }

  /** The underlying queue (tests and the merge path inspect job states). */
  get raw(): Queue<MergeCheckJobData> {
    return this.queue;
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}
