import { lastCommitsForPaths, type LastCommitCache } from './last-commits.js';
import { isZeroId } from '@cairn/contracts';
import { runGitChecked, spawnGit, watchGitExit } from './git-process.js';

/**
 * Trees with more entries (files and directories, all levels) than this are not warmed after a push: one walk
 * that must find the last commit of every path can go deep into history for a large tree (a path untouched for
 * years keeps it going), costing minutes of CPU on a shared host for entries nobody may ever list. Gitea limits
 * its own warm-up as well (`[cache.last_commit] COMMITS_COUNT`).
 */
export const DEFAULT_WARM_MAX_ENTRIES = 2_000;

/** At most this many pushed branches are warmed per push (a push of many branches is usually a mirror or import). */
export const MAX_WARMED_TIPS = 3;

/** One pushed ref update, as the push recorder sees it. */
export interface PushedRef {
  ref: string;
  new: string;
}

/** The branch HEAD points at (`refs/heads/…`), or null when HEAD is detached or unreadable. */
export async function headRef(repoPath: string): Promise<string | null> {
  const { code, stdout } = await runGitChecked(repoPath, ['symbolic-ref', '-q', 'HEAD'], { okCodes: [1], timeoutMs: 10_000 });
  const ref = stdout.toString('utf8').trim();
  return code === 0 && ref.startsWith('refs/heads/') ? ref : null;
}

/**
 * The commits worth warming after a push: the new tips of updated branches (deleted ones have none), the branch
 * HEAD points at first — its listings are what visitors open — then the others in push order, each commit once.
 */
export function tipsToWarm(pushed: Iterable<PushedRef>, headRef: string | null, limit = MAX_WARMED_TIPS): string[] {
  const branches = [...pushed].filter((u) => u.ref.startsWith('refs/heads/') && !isZeroId(u.new));
  branches.sort((a, b) => Number(b.ref === headRef) - Number(a.ref === headRef));
  return [...new Set(branches.map((u) => u.new))].slice(0, limit);
}

export type WarmOutcome =
  | { kind: 'warmed'; paths: number; found: number }
  | { kind: 'too-large'; maxEntries: number };

/**
 * Every path of the tree at `commit` (files, directories and submodules, all levels), or null when there are
 * more than `maxEntries` of them — git is stopped as soon as that is known, so a huge tree costs little.
 */
export function treePaths(repoPath: string, commit: string, maxEntries: number, timeoutMs: number): Promise<string[] | null> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(repoPath, ['ls-tree', '-r', '-t', '-z', '--name-only', '--end-of-options', commit]);
    const chunks: Buffer[] = [];
    let entries = 0;
    let settled = false;
    const finish = (result: string[] | null, err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
      if (err) reject(err);
      else resolve(result);
    };
    const timer = setTimeout(() => finish(null, new Error(`git ls-tree timed out after ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    child.stdout.on('data', (chunk: Buffer) => {
      if (settled) return;
      for (const byte of chunk) if (byte === 0) entries += 1;
      if (entries > maxEntries) return finish(null);
      chunks.push(chunk);
    });
    child.stdin.end();
    watchGitExit(child, (err) => {
      if (err) return finish(null, err);
      const out = Buffer.concat(chunks).toString('utf8');
      finish(out.split('\0').filter((p) => p !== ''));
    });
  });
}

/**
 * Fills the last-commit cache for every path of the tree at `commit`, as Gitea's `CacheRef` does after a push, so
 * the first contents listing at a new branch tip needs no history walk. Trees above `maxEntries` are skipped (see
 * {@link DEFAULT_WARM_MAX_ENTRIES}). The walk is `lastCommitsForPaths` with every path: their common directory is
 * the root, so it runs without a pathspec and stops once every path has been seen (or at `timeoutMs`, keeping what
 * it found).
 */
export async function warmLastCommits(
  repoPath: string,
  commit: string,
  options: { maxEntries?: number; timeoutMs?: number; cache?: LastCommitCache; signal?: AbortSignal } = {},
): Promise<WarmOutcome> {
  const maxEntries = options.maxEntries ?? DEFAULT_WARM_MAX_ENTRIES;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const paths = await treePaths(repoPath, commit, maxEntries, timeoutMs);
  if (paths === null) return { kind: 'too-large', maxEntries };
  if (paths.length === 0 || options.signal?.aborted) return { kind: 'warmed', paths: paths.length, found: 0 };
  const found = await lastCommitsForPaths(repoPath, commit, paths, {
    timeoutMs,
    signal: options.signal,
    ...(options.cache ? { cache: options.cache } : {}),
  });
  return { kind: 'warmed', paths: paths.length, found: found.size };
}
