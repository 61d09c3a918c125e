import { isObjectId } from '@cairn/contracts';
import { LruCache, rpcDeadlineSignal } from '@cairn/platform';
import type { CatFilePool } from './cat-file-pool.js';
import { parseCommitObject, type ParsedCommitObject } from './commit-object.js';
import { GitCommandError, runGitChecked, spawnGit, watchGitExit } from './git-process.js';
import { COMMIT_ID_LOG_FORMAT, parseDiffLog, type LoggedDiff } from './log-format.js';
import { RevListPage } from './rev-list-page.js';

/** The revision range and filters shared by a page of commits and its count (so both always agree). */
export interface HistoryFilter {
  /** Full commit id to start from. */
  commit: string;
  /** Full commit id whose history is excluded (Gitea's `not`). */
  not?: string;
  /** Only commits touching this (sanitised) tree path. */
  path?: string;
  /** Inclusive bounds on the committer date, unix seconds (already normalised; never user text). */
  sinceSeconds?: number;
  untilSeconds?: number;
}

function filterArgs(f: HistoryFilter): { options: string[]; revisions: string[] } {
  const options: string[] = [];
  // `--max-age`/`--min-age` are `--since`/`--until` with exact timestamps: committer date, both bounds inclusive.
  if (f.sinceSeconds !== undefined) options.push(`--max-age=${Math.trunc(f.sinceSeconds)}`);
  if (f.untilSeconds !== undefined) options.push(`--min-age=${Math.trunc(f.untilSeconds)}`);
  const revisions = ['--end-of-options', f.commit];
  if (f.not) revisions.push(`^${f.not}`);
  revisions.push('--');
  if (f.path) revisions.push(f.path);
  return { options, revisions };
}

/**
 * Remembers commit counts by repository and filter. Every part of the key is immutable — full commit ids (which
 * name the whole history behind them), a tree path and absolute timestamps — so a count never goes stale; a push
 * moves the branch to a new commit id, hence a new key. Only memory is bounded.
 */
export class HistoryCountCache {
  private readonly entries: LruCache<number>;

  constructor(readonly maxEntries = 10_000) {
    this.entries = new LruCache(maxEntries);
  }

  private key(repoPath: string, f: HistoryFilter): string {
    return [repoPath, f.commit, f.not ?? '', f.path ?? '', f.sinceSeconds ?? '', f.untilSeconds ?? ''].join('\0');
  }

  get(repoPath: string, f: HistoryFilter): number | undefined {
    return this.entries.get(this.key(repoPath, f));
  }

  set(repoPath: string, f: HistoryFilter, total: number): void {
    this.entries.set(this.key(repoPath, f), total);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** The process-wide count cache. */
export const historyCountCache = new HistoryCountCache();

/** A page of commit ids and the number of commits matching the filter, from one walk. */
export interface WalkedHistory {
  total: number;
  ids: string[];
}

/**
 * Walks the filtered history once (`git rev-list` with exactly the log's filters) and returns both the number of
 * matching commits and the ids of one page (`skip`, `limit`), in log order. A `rev-list --count` next to a
 * `git log` page would walk the same history twice — for a date window deep in history, nearly all of the work.
 * The ids are streamed and counted, never held beyond the page; `GIT_FLUSH=0` lets git buffer its output instead
 * of writing once per commit.
 */
export function walkHistory(
  repoPath: string,
  f: HistoryFilter,
  page: { skip: number; limit: number },
  options: { timeoutMs?: number } = {},
): Promise<WalkedHistory> {
  const { options: filters, revisions } = filterArgs(f);
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const child = spawnGit(repoPath, ['rev-list', ...filters, ...revisions], { env: { GIT_FLUSH: '0' } });
    const reader = new RevListPage(page.skip, page.limit);
    let failure: Error | null = null;
    const timer = setTimeout(() => {
      failure ??= new GitCommandError('rev-list', null, `timed out after ${timeoutMs} ms`);
      child.kill('SIGKILL');
    }, timeoutMs);
    timer.unref();
    child.stdout.on('data', (chunk: Buffer) => {
      if (failure) return;
      try {
        reader.push(chunk);
      } catch (err) {
        failure = err as Error;
        child.kill('SIGKILL');
      }
    });
    watchGitExit(child, (exitError) => {
      clearTimeout(timer);
      const error = failure ?? exitError;
      if (error) return reject(error);
      try {
        reader.finish();
      } catch (err) {
        return reject(err as Error);
      }
      resolve({ total: reader.total, ids: reader.ids });
    });
    child.stdin.end();
  });
}

/** The number of commits matching the filter: from the count cache, or one walk (then cached). */
export async function countHistory(repoPath: string, f: HistoryFilter): Promise<number> {
  const cached = historyCountCache.get(repoPath, f);
  if (cached !== undefined) return cached;
  const { total } = await walkHistory(repoPath, f, { skip: 0, limit: 0 });
  historyCountCache.set(repoPath, f, total);
  return total;
}

/** True when at least one commit reachable from `commit` touched `path` (no date filters). */
export async function pathHasHistory(repoPath: string, commit: string, path: string): Promise<boolean> {
  const { stdout } = await runGitChecked(repoPath, ['rev-list', '--max-count=1', '--end-of-options', commit, '--', path]);
  return stdout.length > 0;
}

/** The diff output wanted with each commit. */
export interface DiffOptions {
  /** Changed files (`--raw`). */
  files: boolean;
  /** Line counts (`--numstat`). */
  stat: boolean;
}

export interface LogPageOptions extends DiffOptions {
  skip: number;
  limit: number;
}

/** The diff output asked for (merges against their first parent, as Gitea; renames off). */
function diffArgs(page: DiffOptions): string[] {
  const diff: string[] = [];
  if (page.files) diff.push('--raw');
  if (page.stat) diff.push('--numstat');
  if (diff.length) diff.push('--no-renames', '--diff-merges=first-parent');
  return diff;
}

/**
 * One page of the filtered history in one `git log` process: the ids in order, with `--raw` and/or `--numstat`
 * output when files or stats are wanted (the whole commit's changes even when the list is limited to a path).
 * The walk stops at the end of the page; what it cannot say is the total ({@link walkHistory} does both).
 */
export async function logPage(repoPath: string, f: HistoryFilter, page: LogPageOptions): Promise<LoggedDiff[]> {
  const { options, revisions } = filterArgs(f);
  const diff = diffArgs(page);
  if (diff.length && f.path) diff.push('--full-diff');
  const args = [
    'log',
    '-z',
    `--format=${COMMIT_ID_LOG_FORMAT}`,
    ...diff,
    `--skip=${Math.max(0, Math.trunc(page.skip))}`,
    `--max-count=${Math.max(0, Math.trunc(page.limit))}`,
    ...options,
    ...revisions,
  ];
  // A long walk stops once the caller's deadline passed (a read: nothing is left half done).
  const { stdout } = await runGitChecked(repoPath, args, { signal: rpcDeadlineSignal() });
  return parseDiffLog(stdout);
}

/**
 * The diff output of the given commits (full ids), in their order, exactly as {@link logPage} gives it, from one
 * `git log --no-walk --stdin` (no history walk; no pathspec, so the whole commit's changes, as `--full-diff` gives).
 * git is started at once and handed the ids when they arrive, so its start-up overlaps whatever produces them
 * (the walk of {@link walkHistory}). Without files or stats there is nothing to ask git.
 */
export function logDiffs(
  repoPath: string,
  ids: string[] | Promise<string[]>,
  options: DiffOptions,
  timeoutMs = 60_000,
): Promise<LoggedDiff[]> {
  const diff = diffArgs(options);
  if (diff.length === 0) return Promise.resolve(ids).then((list) => list.map((sha) => ({ sha })));
  const args = [
    'log',
    '--no-walk=unsorted',
    '--stdin',
    '-z',
    `--format=${COMMIT_ID_LOG_FORMAT}`,
    ...diff,
    '--end-of-options',
    '--',
  ];
  return new Promise((resolve, reject) => {
    const child = spawnGit(repoPath, args);
    const out: Buffer[] = [];
    let failure: Error | null = null;
    // With no ids git would fall back to HEAD: it is stopped and its output ignored.
    let nothingToAsk = false;
    let timer: NodeJS.Timeout | undefined;
    const stop = (err: Error | null) => {
      failure ??= err;
      child.kill('SIGKILL');
    };
    child.stdout.on('data', (b: Buffer) => out.push(b));
    watchGitExit(child, (exitError) => {
      clearTimeout(timer);
      if (failure) return reject(failure);
      if (nothingToAsk) return resolve([]);
      if (exitError) return reject(exitError);
      try {
        resolve(parseDiffLog(Buffer.concat(out)));
      } catch (err) {
        reject(err as Error);
      }
    });
    Promise.resolve(ids).then(
      (list) => {
        if (list.length === 0) {
          nothingToAsk = true;
          return stop(null);
        }
        const bad = list.find((id) => !isObjectId(id));
        if (bad !== undefined) return stop(new Error(`not a full commit id: ${bad}`));
        // Timed from here: until now git was only waiting (for a walk that has its own time limit).
        timer = setTimeout(() => {
          stop(new GitCommandError('log', null, `timed out after ${timeoutMs} ms`));
        }, timeoutMs);
        timer.unref();
        child.stdin.end(list.map((id) => `${id}\n`).join(''));
      },
      (err: Error) => stop(err),
    );
  });
}

/** A commit of a history page: the parsed commit object, with diff output when it was asked for. */
export interface HistoryCommit extends ParsedCommitObject, LoggedDiff {}

/**
 * The commit objects of the given ids, read in one pipelined round trip of the repository's pooled `cat-file`
 * process (no git process per page) and parsed as the branch API parses them, by id. Throws when an id is not a
 * commit.
 */
export async function readCommitObjects(
  pool: Pick<CatFilePool, 'run'>,
  repoPath: string,
  ids: string[],
): Promise<Map<string, ParsedCommitObject>> {
  const objects = ids.length ? await pool.run(repoPath, ids.map((id) => ({ op: 'contents', object: id }))) : [];
  const byId = new Map<string, ParsedCommitObject>();
  objects.forEach((o, i) => {
    if (o?.type !== 'commit' || !o.data) throw new Error(`not a commit: ${ids[i]}`);
    byId.set(ids[i], parseCommitObject(o.data));
  });
  return byId;
}

/** Puts listed commits (ids and diff output, in page order) together with their commit objects. */
export function historyCommits(listed: LoggedDiff[], objects: Map<string, ParsedCommitObject>): HistoryCommit[] {
  return listed.map((c) => {
    const object = objects.get(c.sha);
    if (!object) throw new Error(`commit ${c.sha} was listed but not read`);
    return { ...object, ...c };
  });
}
