import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { checkNowUpdatedAfter, mergeCheckPriority } from '@cairn/contracts';
import { MergeCheckQueue, checkJobData } from '../pulls/merge-check.queue.js';
import { PULL_SETTINGS, type PullSettings } from '../pulls/pull-settings.js';
import { PullsRepository } from '../pulls/pulls.repository.js';

/** At most this many checks are queued again at one start (most recently updated first; views cover the rest). */
const MAX_REQUEUED = 1_000;

/** At start, requeues checks a crash lost after commit; jobs are unique per commit pair, so nothing is duplicated. */
@Injectable()
export class PendingChecks implements OnApplicationBootstrap {
  private readonly logger = new Logger('PendingChecks');

  constructor(
    private readonly pulls: PullsRepository,
    private readonly queue: MergeCheckQueue,
    @Inject(PULL_SETTINGS) private readonly settings: PullSettings,
  ) {}

  onApplicationBootstrap(): void {
    void this.requeue().catch((err: Error) => this.logger.warn(`re-queueing pending checks failed: ${err.message}`));
  }

  async requeue(now = new Date()): Promise<number> {
    const bound = checkNowUpdatedAfter(now, this.settings.delayCheckForInactiveDays);
    if (bound === 'none') return 0;
    const pending = await this.pulls.pendingChecks(bound === 'all' ? null : bound, MAX_REQUEUED);
    let rank = 0;
    for (const c of pending) {
      await this.queue.enqueue(checkJobData(c), mergeCheckPriority(c.issueUpdatedAt, now, rank++));
    }
    if (pending.length) this.logger.log(`queued ${pending.length} pending check(s) again`);
    return pending.length;
  }
}
