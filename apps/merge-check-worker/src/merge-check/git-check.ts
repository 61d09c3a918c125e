import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isObjectId, parseMergeTreeOutput, type MergeTreeOutcome } from '@cairn/contracts';
import { runGit } from '@cairn/git';

/** `git merge-base` as its own process: the merge base, or undefined when there is none or git failed. */
export async function mergeBaseByProcess(dir: string, base: string, head: string, timeoutMs: number): Promise<string | undefined> {
  const mb = await runGit(dir, ['merge-base', '--end-of-options', base, head], { timeoutMs });
  const oid = mb.stdout.toString('utf8').trim();
  return mb.code === 0 && isObjectId(oid) ? oid : undefined;
}

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
 * cannot answer request by request): `git merge-tree --write-tree` with its objects written to a throw-away object
 * directory (the repository's objects reached as an alternate) and removed afterwards, plus `git merge-base` side by
 * side. A check running longer than `timeoutMs` is killed and reported as `error`.
 */
export async function runCheck(dir: string, base: string, head: string, timeoutMs: number): Promise<CheckResult> {
  if (!isObjectId(base) || !isObjectId(head)) throw new Error('base and head must be full object ids');
  const scratch = await mkdtemp(join(tmpdir(), 'cairn-merge-check-'));
  try {
    const env = { GIT_OBJECT_DIRECTORY: scratch, GIT_ALTERNATE_OBJECT_DIRECTORIES: join(dir, 'objects') };
    const [mt, mergeBase] = await Promise.all([
      runGit(dir, ['merge-tree', '--write-tree', '-z', '--name-only', '--no-messages', '--end-of-options', base, head], { env, timeoutMs }),
      mergeBaseByProcess(dir, base, head, timeoutMs),
    ]);
    if (mt.timedOut) {
      return { status: 'error', conflictedFiles: [], message: `the check exceeded its time limit of ${timeoutMs} ms`, outcome: 'error' };
    }
    return toCheckResult(parseMergeTreeOutput(mt.stdout.toString('utf8'), mt.code, mt.stderr), mergeBase);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
