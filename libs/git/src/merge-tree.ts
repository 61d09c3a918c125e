import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isObjectId } from '@cairn/contracts';
import { runGit } from './git-process.js';
import { assertOid } from './refs.js';

export type MergeTreeOutcome =
  | { kind: 'clean'; tree: string }
  | { kind: 'conflict'; tree: string; files: string[] }
  | { kind: 'error'; message: string };


/** Exit 0: clean; exit 1 with a tree id first: conflict plus names; anything else (git 2.39 exits 1 for unknown commits) is an error. */
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

export function mergeTimedOut(timeoutMs: number): MergeTreeOutcome {
  return { kind: 'error', message: `the merge check exceeded its time limit of ${timeoutMs} ms` };
}

export interface MergeTreeOptions {
  /** A read-only check. */
  objectDirectory?: string;
  timeoutMs?: number;
}

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

/** The repository's objects are reached as an alternate of a throw-away object directory. */
export async function checkMergeability(dir: string, base: string, head: string, timeoutMs: number): Promise<MergeTreeOutcome> {
  const scratch = await mkdtemp(join(tmpdir(), 'cairn-merge-check-'));
  try {
    return await mergeTree(dir, base, head, { objectDirectory: scratch, timeoutMs });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
