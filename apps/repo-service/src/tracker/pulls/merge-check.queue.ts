import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import {
  MERGE_CHECK_URGENT_PRIORITY, Queues, mergeCheckJobOptions, type MergeCheckJobData,
} from '@cairn/contracts';
import {
  COMMON_SETTINGS, addUniqueJob, createQueue, jobNameOf, type CommonSettings, type TypedQueue,
} from '@cairn/platform';

/** Adds in flight at once in {@link MergeCheckQueue.enqueueMany} (commands on one connection, sent back to back). */
const ENQUEUE_AT_ONCE = 64;

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

  /**
   * Queues several checks (each as {@link enqueue}) without waiting for one Redis round trip after another: up to
   * {@link ENQUEUE_AT_ONCE} adds are in flight, so a push that moves the base of many pull requests has its first
   * jobs running while the rest are added. Returns the checks that could not be queued, with their errors.
   */
  async enqueueMany(checks: Array<{ data: MergeCheckJobData; priority: number }>): Promise<Array<{ data: MergeCheckJobData; error: Error }>> {
    const failed: Array<{ data: MergeCheckJobData; error: Error }> = [];
    for (let i = 0; i < checks.length; i += ENQUEUE_AT_ONCE) {
      await Promise.all(
        checks.slice(i, i + ENQUEUE_AT_ONCE).map((c) =>
          this.enqueue(c.data, c.priority).catch((error: Error) => {
            failed.push({ data: c.data, error });
          }),
        ),
      );
    }
    return failed;
  }

  /** The underlying queue (tests and the merge path inspect job states). */
  get raw(): TypedQueue<typeof Queues.mergeCheck> {
    return this.queue;
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}
