import { spawnGit } from './git-process.js';
import { LAST_COMMIT_LOG_FORMAT, WalkParser, type WalkedCommit } from './log-format.js';
import { parentOf } from './tree-path.js';
import { LruCache } from '@cairn/platform';

/** The last commit that changed a path (Gitea's `last_commit_sha` and dates). */
export type LastCommit = WalkedCommit;

/**
 * Remembers last commits by (repository, commit, path). The answer for a given commit id never changes — the id
 * names the whole history behind it — so entries never go stale; the cache is only bounded (least recently used
 * entries go first). Repeated requests at the same commit (clients polling a branch head, or fetching a file list
 * and then the files) then need no `git log` at all.
 */
export class LastCommitCache {
  private readonly entries: LruCache<LastCommit>;

  constructor(readonly maxEntries = 20_000) {
    this.entries = new LruCache(maxEntries);
  }

  private key(repoPath: string, commit: string, path: string): string {
    return `${repoPath}\0${commit}\0${path}`;
  }

  get(repoPath: string, commit: string, path: string): LastCommit | undefined {
    return this.entries.get(this.key(repoPath, commit, path));
  }

  set(repoPath: string, commit: string, path: string, value: LastCommit): void {
    this.entries.set(this.key(repoPath, commit, path), value);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The process-wide cache used unless a caller passes its own (or `null` for none). */
export const lastCommitCache = new LastCommitCache();

/** With more paths than this, the walk is limited to their common directory instead of listing each one. */
const MAX_PATHSPECS = 64;

function commonDirectory(paths: string[]): string {
  let common = parentOf(paths[0]);
  for (const p of paths) {
    while (common !== '' && p !== common && !p.startsWith(`${common}/`)) common = parentOf(common);
  }
  return common;
}

/**
 * The last commit that changed each of the given tree paths (files or directories), from one `git log` walk
 * instead of one `git log -1 -- <path>` per path. The walk is limited to the requested paths (or their common
 * directory when there are many), lists each commit's changed paths (`--raw`, renames off), and is stopped as soon
 * as every path has been seen — usually after a handful of commits. A changed path counts for every requested
 * path that equals it or contains it.
 *
 * Merges: with `--diff-merges=combined` a merge lists only the paths that differ from *every* parent — the paths
 * for which `git log -1 -- <path>` would stop at the merge itself; for the others the walk goes on into the parent
 * the path came from, as per-path history simplification does. The one difference from per-path `git log -1`:
 * history is simplified for the union of the paths, so in rare merge shapes (a path taken unchanged from one
 * parent, while the other parent changed it too) a commit from the other side can be reported.
 *
 * Paths never seen (shallow history, or the walk timed out or was aborted) are absent from the result. Paths
 * answered by the cache cost nothing; the walk only looks for the others.
 */
export function lastCommitsForPaths(
  repoPath: string,
  commit: string,
  paths: string[],
  options: {
    timeoutMs?: number;
    cache?: LastCommitCache | null;
    signal?: AbortSignal;
    /** Told when the walk stopped at its time limit (the app logs it). */
    onTimeout?: (message: string) => void;
  } = {},
): Promise<Map<string, LastCommit>> {
  const cache = options.cache === undefined ? lastCommitCache : options.cache;
  const remaining = new Set<string>();
  const found = new Map<string, LastCommit>();
  for (const p of paths) {
    const hit = cache?.get(repoPath, commit, p);
    if (hit) found.set(p, hit);
    else remaining.add(p);
  }
  if (remaining.size === 0 || options.signal?.aborted) return Promise.resolve(found);
  const unique = [...remaining];
  const pathspec = unique.length <= MAX_PATHSPECS ? unique : [commonDirectory(unique)].filter((d) => d !== '');
  const args = [
    'log',
    '-z',
    `--format=${LAST_COMMIT_LOG_FORMAT}`,
    '--raw',
    '--no-renames',
    '--diff-merges=combined',
    '--end-of-options',
    commit,
    '--',
    ...pathspec,
  ];
  return new Promise((resolve, reject) => {
    const child = spawnGit(repoPath, args);
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null) child.kill('SIGKILL');
      if (err) reject(err);
      else resolve(found);
    };
    const timer = setTimeout(() => {
      options.onTimeout?.(`last-commit walk stopped after ${options.timeoutMs ?? 30_000} ms`);
      finish();
    }, options.timeoutMs ?? 30_000);
    timer.unref();
    // Stopped (e.g. at shutdown) like a timeout: what was found so far is kept.
    const onAbort = () => finish();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const parser = new WalkParser((c, changed) => {
      // The changed path and each of its parent directories may be a requested path.
      let p = changed;
      for (;;) {
        if (remaining.delete(p)) {
          found.set(p, c);
          cache?.set(repoPath, commit, p, c);
        }
        const i = p.lastIndexOf('/');
        if (i < 0) break;
        p = p.slice(0, i);
      }
      if (remaining.size === 0) finish();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (settled) return;
      try {
        parser.push(chunk);
      } catch (err) {
        finish(err as Error);
      }
    });
    child.stderr.resume();
    child.stdin.end();
    child.on('error', (err) => finish(err));
    child.on('close', () => {
      if (settled) return;
      try {
        parser.end();
      } catch (err) {
        return finish(err as Error);
      }
      finish();
    });
  });
}
