import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import {
  MERGE_CHECK_URGENT_PRIORITY, Queues, mergeCheckJobOptions, type MergeCheckJobData,
} from '@cairn/contracts';
import {
  COMMON_SETTINGS, addUniqueJob, createQueue, jobNameOf, type CommonSettings, type TypedQueue,
} from '@cairn/platform';

/** Adds in flight at once in {@link MergeCheckQueue.enqueueMany} (commands on one connection, sent back to back). */
const ENQUEUE_AT_ONCE = 64;

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

/** Producer side: one Redis round trip, works while every worker is down, and the job id collapses concurrent adds. */
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

  /** At most one job per commit pair; a finished job for the pair is replaced, since someone needs a current answer. */
  async enqueue(data: MergeCheckJobData, priority = MERGE_CHECK_URGENT_PRIORITY): Promise<string> {
    const options = mergeCheckJobOptions(data, priority);
    await addUniqueJob(this.queue, jobNameOf(Queues.mergeCheck), data, options);
    return options.jobId;
  }

  /** Up to {@link ENQUEUE_AT_ONCE} adds in flight: a push moving many bases has its first jobs running early. */
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
