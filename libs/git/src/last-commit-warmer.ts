import { lastCommitsForPaths, type LastCommitCache } from './last-commits.js';
import { isZeroId } from '@cairn/contracts';
import { runGitChecked, spawnGit, watchGitExit } from './git-process.js';

/** A walk for every path of a large tree can go years deep; Gitea caps its warm-up too (`[cache.last_commit] COMMITS_COUNT`). */
export const DEFAULT_WARM_MAX_ENTRIES = 2_000;

/** A push of many branches is usually a mirror or import. */
export const MAX_WARMED_TIPS = 3;

export interface PushedRef {
  ref: string;
  new: string;
}

export async function headRef(repoPath: string): Promise<string | null> {
  const { code, stdout } = await runGitChecked(repoPath, ['symbolic-ref', '-q', 'HEAD'], { okCodes: [1], timeoutMs: 10_000 });
  const ref = stdout.toString('utf8').trim();
  return code === 0 && ref.startsWith('refs/heads/') ? ref : null;
}

/** HEAD's branch first (what visitors open), then the rest in push order, each commit once. */
export function tipsToWarm(pushed: Iterable<PushedRef>, headRef: string | null, limit = MAX_WARMED_TIPS): string[] {
  const branches = [...pushed].filter((u) => u.ref.startsWith('refs/heads/') && !isZeroId(u.new));
  branches.sort((a, b) => Number(b.ref === headRef) - Number(a.ref === headRef));
  return [...new Set(branches.map((u) => u.new))].slice(0, limit);
}

export type WarmOutcome =
  | { kind: 'warmed'; paths: number; found: number }
  | { kind: 'too-large'; maxEntries: number };

/** Null past `maxEntries`; git is stopped as soon as that is known. */
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

/** As Gitea's `CacheRef` after a push, so the first listing at a new tip needs no walk. */
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
