/** A result for another commit pair is never stored. */
export interface MergeCheckJobData {
  pullId: number;
  repoId: number;
  baseSha: string;
  headSha: string;
}

/** The same id again (concurrent views, a redelivered push) returns the existing job. BullMQ forbids `:` in custom ids. */
export function mergeCheckJobId(pullId: number, baseSha: string, headSha: string): string {
  return `pr-${pullId}-${baseSha}-${headSha}`;
}

/** So the job of a pair still being asked for is found; a pair asked again after that gets a new job (`addUniqueJob`). */
export const MERGE_CHECK_KEEP_FINISHED_SECONDS = 24 * 3600;

/** Three attempts for infrastructure failures; a git failure is a result, never retried. */
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

export const MERGE_CHECK_MAX_PRIORITY = 2_097_151;
export const MERGE_CHECK_URGENT_PRIORITY = 1;

/** Recently updated first; `rank` spreads one repository's large batch so another's small one still runs early. */
export function mergeCheckPriority(issueUpdatedAt: Date, now: Date, rank = 0): number {
  const hours = Math.max(0, Math.floor((now.getTime() - issueUpdatedAt.getTime()) / 3_600_000));
  const p = 2 + hours + Math.max(0, Math.floor(rank));
  return Math.min(MERGE_CHECK_MAX_PRIORITY, Number.isFinite(p) ? p : MERGE_CHECK_MAX_PRIORITY);
}

/** Gitea's rule (`updated + N days > now`): `'all'` for a negative value, `'none'` for 0; the one home of it. */
export function checkNowUpdatedAfter(now: Date, delayDays: number): Date | 'all' | 'none' {
  if (delayDays < 0) return 'all';
  if (delayDays === 0) return 'none';
  return new Date(now.getTime() - delayDays * 86_400_000);
}

export function checkNowAfterBaseMove(issueUpdatedAt: Date, now: Date, delayDays: number): boolean {
  const bound = checkNowUpdatedAfter(now, delayDays);
  return bound === 'all' || (bound !== 'none' && issueUpdatedAt.getTime() > bound.getTime());
}
