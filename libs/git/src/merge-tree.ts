import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isObjectId } from '@cairn/contracts';
import { runGit } from './git-process.js';
import { assertOid } from './refs.js';

/** What `git merge-tree --write-tree -z --name-only --no-messages <base> <head>` said. */
export type MergeTreeOutcome =
  | { kind: 'clean'; tree: string }
  | { kind: 'conflict'; tree: string; files: string[] }
  | { kind: 'error'; message: string };


/**
 * Interprets a `git merge-tree --write-tree -z --name-only --no-messages` run: exit 0 is a clean merge (the output is
 * the tree id); exit 1 with a tree id first is a conflict, followed by the NUL-separated names of the conflicted
 * files (each once, in git's order); anything else (git 2.39 also exits 1 for unknown commits, without a tree id)
 * is an error carrying git's message.
 */
export function parseMergeTreeOutput(stdout: string, exitCode: number | null, stderr = ''): MergeTreeOutcome {
  const fields = stdout.split('\0');
  const tree = fields[0]?.trim() ?? '';
  if (exitCode === 0 && isObjectId(tree)) return { kind: 'clean', tree };
  if (exitCode === 1 && isObjectId(tree)) {
    const files: string[] = [];
    const seen = new Set<string>();
    // The file list ends at the first empty field (the separator before the messages section, or the end).
    for (const name of fields.slice(1)) {
      if (name === '') break;
      if (!seen.has(name)) {
        seen.add(name);
        files.push(name);
      }
    }
    return { kind: 'conflict', tree, files };
  }
  const message = stderr.trim() || stdout.trim() || `git merge-tree exited with ${exitCode ?? 'a signal'}`;
  return { kind: 'error', message: message.slice(0, 2000) };
}

/** The outcome of a merge (one-shot or in a session) that ran out of time. */
export function mergeTimedOut(timeoutMs: number): MergeTreeOutcome {
  return { kind: 'error', message: `the merge check exceeded its time limit of ${timeoutMs} ms` };
}

export interface MergeTreeOptions {
  /** Write the objects here instead of into the repository (a read-only check). */
  objectDirectory?: string;
  timeoutMs?: number;
}

/**
 * `git merge-tree --write-tree` of two commits: the merged tree, or the conflicted files, or an error (a timeout is an
 * error saying so). With `objectDirectory` the repository itself is only read.
 */
export async function mergeTree(dir: string, ours: string, theirs: string, options: MergeTreeOptions = {}): Promise<MergeTreeOutcome> {
  const env = options.objectDirectory
    ? { GIT_OBJECT_DIRECTORY: options.objectDirectory, GIT_ALTERNATE_OBJECT_DIRECTORIES: join(dir, 'objects') }
    : {};
  const r = await runGit(
    dir,
    ['merge-tree', '--write-tree', '-z', '--name-only', '--no-messages', '--end-of-options', assertOid(ours), assertOid(theirs)],
    { env, timeoutMs: options.timeoutMs },
  );
  if (r.timedOut) return mergeTimedOut(options.timeoutMs ?? 60_000);
  return parseMergeTreeOutput(r.stdout.toString('utf8'), r.code, r.stderr);
}

/**
 * A read-only mergeability check: `merge-tree` with its objects written to a throw-away object directory (the
 * repository's objects are reached as an alternate), removed afterwards.
 */
export async function checkMergeability(dir: string, base: string, head: string, timeoutMs: number): Promise<MergeTreeOutcome> {
  const scratch = await mkdtemp(join(tmpdir(), 'cairn-merge-check-'));
  try {
    return await mergeTree(dir, base, head, { objectDirectory: scratch, timeoutMs });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
