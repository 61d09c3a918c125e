import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import {
  MERGE_CHECK_URGENT_PRIORITY, Queues, mergeCheckJobOptions, type MergeCheckJobData,
} from '@cairn/contracts';
import {
  COMMON_SETTINGS, addUniqueJob, createQueue, jobNameOf, type CommonSettings, type TypedQueue,
} from '@cairn/platform';

/** A pull request as the queue needs it: its id, repository and the commit pair to check. */
export interface CheckablePull {
  id: number;
  repoId: number;
  baseSha: string;
  headSha: string;
}

/** The job of one check (the commit pair is the pull request's current one when queued). */
export function checkJobData(pr: CheckablePull): MergeCheckJobData {
  return { pullId: pr.id, repoId: pr.repoId, baseSha: pr.baseSha, headSha: pr.headSha };
}

/**
 * repo-service's producer side of the merge-check queue. repo-service adds jobs itself (PR creation, views, merges,
 * branch updates) rather than asking the worker over NATS: adding is one Redis round trip, works while every worker
 * is down or busy (the job waits in Redis), and the job id makes concurrent adds collapse into one job.
 */
@Injectable()
export class MergeCheckQueue implements OnModuleDestroy {
  private readonly logger = new Logger('MergeCheckQueue');
  private readonly queue: TypedQueue<typeof Queues.mergeCheck>;

  constructor(@Inject(COMMON_SETTINGS) settings: CommonSettings) {
    this.queue = createQueue(Queues.mergeCheck, {
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
    const options = mergeCheckJobOptions(data, priority);
    await addUniqueJob(this.queue, jobNameOf(Queues.mergeCheck), data, options);
    return options.jobId;
  }

  /** The underlying queue (tests and the merge path inspect job states). */
  get raw(): TypedQueue<typeof Queues.mergeCheck> {
    return this.queue;
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}
