import { isObjectId } from '@cairn/contracts';
import { checkMergeability, mergeBase, type MergeTreeOutcome } from '@cairn/git';

/** A check's result as repo-service stores it. */
export interface CheckResult {
  status: 'mergeable' | 'conflict' | 'error';
  conflictedFiles: string[];
  mergeBase?: string;
  message?: string;
  outcome: MergeTreeOutcome['kind'];
}

/** A check's result from what merge-tree said and the merge base. */
export function toCheckResult(outcome: MergeTreeOutcome, mergeBase: string | undefined): CheckResult {
  if (outcome.kind === 'error') return { status: 'error', conflictedFiles: [], message: outcome.message, outcome: 'error' };
  return outcome.kind === 'clean'
    ? { status: 'mergeable', conflictedFiles: [], mergeBase, outcome: 'clean' }
    : { status: 'conflict', conflictedFiles: outcome.files, mergeBase, outcome: 'conflict' };
}

/**
 * One mergeability check with processes of its own (what the worker falls back to where a long-lived merge-tree
 * cannot answer request by request): a read-only `git merge-tree` and `git merge-base` side by side. A check running
 * longer than `timeoutMs` is killed and reported as `error`.
 */
export async function runCheck(dir: string, base: string, head: string, timeoutMs: number): Promise<CheckResult> {
  if (!isObjectId(base) || !isObjectId(head)) throw new Error('base and head must be full object ids');
  const [outcome, found] = await Promise.all([
    checkMergeability(dir, base, head, timeoutMs),
    mergeBase(dir, base, head, { timeoutMs }),
  ]);
  return toCheckResult(outcome, found ?? undefined);
}
