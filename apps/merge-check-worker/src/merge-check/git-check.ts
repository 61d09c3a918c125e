import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { parseMergeTreeOutput, type MergeTreeOutcome } from '@cairn/contracts';
import { gitEnvironment } from '@cairn/platform';

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const SAFE_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * The storage of a repository, `<root>/<owner>/<name>.git` lower-cased (repo-service's rule). Names are checked and
 * the result must stay inside the root, so nothing from a message can point git elsewhere.
 */
export function repositoryPath(root: string, ownerName: string, repoName: string): string {
  for (const n of [ownerName, repoName]) {
    if (!SAFE_NAME.test(n) || n === '.' || n === '..' || n.toLowerCase().endsWith('.git')) {
      throw new Error(`invalid owner or repository name ${JSON.stringify(n).slice(0, 120)}`);
    }
  }
  const base = resolve(root);
  const path = resolve(base, ownerName.toLowerCase(), `${repoName.toLowerCase()}.git`);
  if (!path.startsWith(base + sep)) throw new Error('repository path escapes the storage root');
  return path;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs one git command to its end (argument vector, minimal environment), killed after `timeoutMs`. */
export function runGit(dir: string, args: string[], env: Record<string, string>, timeoutMs: number): Promise<Run> {
  return new Promise((resolveRun, reject) => {
    const child = spawn('git', ['--git-dir', dir, ...args], { env: gitEnvironment(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      if (stdout.length < 16 * 1024 * 1024) stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      if (stderr.length < 8192) stderr += c;
    });
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr, timedOut });
    });
  });
}

/** `git merge-base` as its own process: the merge base, or undefined when there is none or git failed. */
export async function mergeBaseByProcess(dir: string, base: string, head: string, timeoutMs: number): Promise<string | undefined> {
  const mb = await runGit(dir, ['merge-base', '--end-of-options', base, head], {}, timeoutMs);
  const oid = mb.stdout.trim();
  return mb.code === 0 && OID.test(oid) ? oid : undefined;
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
  if (!OID.test(base) || !OID.test(head)) throw new Error('base and head must be full object ids');
  const scratch = await mkdtemp(join(tmpdir(), 'cairn-merge-check-'));
  try {
    const env = { GIT_OBJECT_DIRECTORY: scratch, GIT_ALTERNATE_OBJECT_DIRECTORIES: join(dir, 'objects') };
    const [mt, mergeBase] = await Promise.all([
      runGit(dir, ['merge-tree', '--write-tree', '-z', '--name-only', '--no-messages', '--end-of-options', base, head], env, timeoutMs),
      mergeBaseByProcess(dir, base, head, timeoutMs),
    ]);
    if (mt.timedOut) {
      return { status: 'error', conflictedFiles: [], message: `the check exceeded its time limit of ${timeoutMs} ms`, outcome: 'error' };
    }
    return toCheckResult(parseMergeTreeOutput(mt.stdout, mt.code, mt.stderr), mergeBase);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
