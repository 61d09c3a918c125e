import { isObjectId } from '@cairn/contracts';
import { checkMergeability, mergeBase, type MergeTreeOutcome } from '@cairn/git';

export interface CheckResult {
  status: 'mergeable' | 'conflict' | 'error';
  conflictedFiles: string[];
  mergeBase?: string;
  message?: string;
  outcome: MergeTreeOutcome['kind'];
}

export function toCheckResult(outcome: MergeTreeOutcome, mergeBase: string | undefined): CheckResult {
  if (outcome.kind === 'error') return { status: 'error', conflictedFiles: [], message: outcome.message, outcome: 'error' };
  return outcome.kind === 'clean'
    ? { status: 'mergeable', conflictedFiles: [], mergeBase, outcome: 'clean' }
    : { status: 'conflict', conflictedFiles: outcome.files, mergeBase, outcome: 'conflict' };
}

/** One check with processes of its own: the fallback where a long-lived merge-tree cannot answer per request. */
export async function runCheck(dir: string, base: string, head: string, timeoutMs: number): Promise<CheckResult> {
  if (!isObjectId(base) || !isObjectId(head)) throw new Error('base and head must be full object ids');
  const [outcome, found] = await Promise.all([
    checkMergeability(dir, base, head, timeoutMs),
    mergeBase(dir, base, head, { timeoutMs }),
  ]);
  return toCheckResult(outcome, found ?? undefined);
}
