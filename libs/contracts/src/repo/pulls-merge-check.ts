/**
 * The merge-check queue's contract between repo-service (producer) and merge-check-worker: job ids and data,
 * priorities, the delay rule, the meaning of `git merge-tree` output. Pure.
 */

/** What a merge-check job carries: ids and the commit pair it is for (a result for another pair is never stored). */
export interface MergeCheckJobData {
  pullId: number;
  repoId: number;
  baseSha: string;
  headSha: string;
}

/**
 * One job per pull request and commit pair: adding the same id again (concurrent views, a redelivered push event)
 * returns the existing job instead of queueing a second check. BullMQ forbids `:` in custom ids.
 */
export function mergeCheckJobId(pullId: number, baseSha: string, headSha: string): string {
  return `pr-${pullId}-${baseSha}-${headSha}`;
}

/**
 * How long finished check jobs are kept (for inspection, and so that the job of a pair that is still being asked
 * for is found). A pair asked for again after its job finished gets a new job (see `addUniqueJob`).
 */
export const MERGE_CHECK_KEEP_FINISHED_SECONDS = 24 * 3600;

/**
 * The options of every merge-check job (repo-service queues them all): id per pull request and commit pair,
 * priority, three attempts for infrastructure failures (a git failure is a result, never retried).
 */
export function mergeCheckJobOptions(data: MergeCheckJobData, priority: number) {
  return {
    jobId: mergeCheckJobId(data.pullId, data.baseSha, data.headSha),
    priority,
    attempts: 3,
    backoff: { type: 'exponential', delay: 1_000 },
    removeOnComplete: { age: MERGE_CHECK_KEEP_FINISHED_SECONDS },
    removeOnFail: { age: MERGE_CHECK_KEEP_FINISHED_SECONDS },
  };
}

/** BullMQ's largest priority (2^21 - 1); lower numbers run first. */
export const MERGE_CHECK_MAX_PRIORITY = 2_097_151;
/** The priority of a check someone is waiting for: a view, a new pull request, a push to its head. */
export const MERGE_CHECK_URGENT_PRIORITY = 1;

/**
 * The priority of a check queued because its base moved: recently updated pull requests first (one step per hour
 * since the issue's last update), and `rank` — the pull request's position among those queued by the same push,
 * most recent first — added so that one repository's large batch spreads over many priority levels and a small
 * batch from another repository queued later still runs early (fairness without per-repository queues).
 */
export function mergeCheckPriority(issueUpdatedAt: Date, now: Date, rank = 0): number {
  const hours = Math.max(0, Math.floor((now.getTime() - issueUpdatedAt.getTime()) / 3_600_000));
  const p = 2 + hours + Math.max(0, Math.floor(rank));
  return Math.min(MERGE_CHECK_MAX_PRIORITY, Number.isFinite(p) ? p : MERGE_CHECK_MAX_PRIORITY);
}

/**
 * `[repository.pull-request] DELAY_CHECK_FOR_INACTIVE_DAYS` as a bound: after a base move, pull requests whose issue
 * was updated after the returned time are checked now. `'all'` (any negative value): every one, nothing is delayed;
 * `'none'` (`0`): none, every check waits for a view; `N ≥ 1`: those updated in the last N days (Gitea's rule,
 * `updated + N days > now`). The one home of the rule: {@link checkNowAfterBaseMove} and the restart's query use it.
 */
export function checkNowUpdatedAfter(now: Date, delayDays: number): Date | 'all' | 'none' {
  if (delayDays < 0) return 'all';
  if (delayDays === 0) return 'none';
  return new Date(now.getTime() - delayDays * 86_400_000);
}

/** Whether a pull request whose base moved is checked now (true) or waits for a view ({@link checkNowUpdatedAfter}). */
export function checkNowAfterBaseMove(issueUpdatedAt: Date, now: Date, delayDays: number): boolean {
  const bound = checkNowUpdatedAfter(now, delayDays);
  return bound === 'all' || (bound !== 'none' && issueUpdatedAt.getTime() > bound.getTime());
}
