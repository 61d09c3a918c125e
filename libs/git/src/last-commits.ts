import { spawnGit } from './git-process.js';
import { LAST_COMMIT_LOG_FORMAT, WalkParser, type WalkedCommit } from './log-format.js';
import { parentOf } from './tree-path.js';
import { LruCache } from '@cairn/platform';

/** Gitea's `last_commit_sha` and dates. */
export type LastCommit = WalkedCommit;

/** A commit id names its whole history, so entries never go stale; only LRU-bounded. */
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

/** Used unless a caller passes its own (or `null` for none). */
export const lastCommitCache = new LastCommitCache();

const MAX_PATHSPECS = 64;

function commonDirectory(paths: string[]): string {
  let common = parentOf(paths[0]);
  for (const p of paths) {
    while (common !== '' && p !== common && !p.startsWith(`${common}/`)) common = parentOf(common);
  }
  return common;
}

/** One `git log --raw` walk for all paths; with `--diff-merges=combined` rare merge shapes can report the other side's commit. */
export function lastCommitsForPaths(
  repoPath: string,
  commit: string,
  paths: string[],
  options: {
    timeoutMs?: number;
    cache?: LastCommitCache | null;
    signal?: AbortSignal;
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
    // Stopped like a timeout: what was found so far is kept.
    const onAbort = () => finish();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const parser = new WalkParser((c, changed) => {
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
