import { isObjectId } from '@cairn/contracts';
import { LruCache, rpcDeadlineSignal } from '@cairn/platform';
import type { CatFilePool } from './cat-file-pool.js';
import { parseCommitObject, type ParsedCommitObject } from './commit-object.js';
import { GitCommandError, runGitChecked, spawnGit, watchGitExit } from './git-process.js';
import { COMMIT_ID_LOG_FORMAT, parseDiffLog, type LoggedDiff } from './log-format.js';
import { RevListPage } from './rev-list-page.js';

/** Shared by a page and its count so both always agree. */
export interface HistoryFilter {
  commit: string;
  /** Gitea's `not`. */
  not?: string;
  path?: string;
  /** Inclusive, normalised: never user text. */
  sinceSeconds?: number;
  untilSeconds?: number;
}

function filterArgs(f: HistoryFilter): { options: string[]; revisions: string[] } {
  const options: string[] = [];
  if (f.sinceSeconds !== undefined) options.push(`--max-age=${Math.trunc(f.sinceSeconds)}`);
  if (f.untilSeconds !== undefined) options.push(`--min-age=${Math.trunc(f.untilSeconds)}`);
  const revisions = ['--end-of-options', f.commit];
  if (f.not) revisions.push(`^${f.not}`);
  revisions.push('--');
  if (f.path) revisions.push(f.path);
  return { options, revisions };
}

/** Keys are immutable (full commit ids, path, absolute timestamps): a count never goes stale. */
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

export const historyCountCache = new HistoryCountCache();

export interface WalkedHistory {
  total: number;
  ids: string[];
}

/** One `rev-list` walk: a separate `--count` would walk a deep date window twice. */
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

export async function countHistory(repoPath: string, f: HistoryFilter): Promise<number> {
  const cached = historyCountCache.get(repoPath, f);
  if (cached !== undefined) return cached;
  const { total } = await walkHistory(repoPath, f, { skip: 0, limit: 0 });
  historyCountCache.set(repoPath, f, total);
  return total;
}

export async function pathHasHistory(repoPath: string, commit: string, path: string): Promise<boolean> {
  const { stdout } = await runGitChecked(repoPath, ['rev-list', '--max-count=1', '--end-of-options', commit, '--', path]);
  return stdout.length > 0;
}

export interface DiffOptions {
  files: boolean;
  stat: boolean;
}

export interface LogPageOptions extends DiffOptions {
  skip: number;
  limit: number;
}

/** Merges against their first parent, as Gitea; renames off. */
function diffArgs(page: DiffOptions): string[] {
  const diff: string[] = [];
  if (page.files) diff.push('--raw');
  if (page.stat) diff.push('--numstat');
  if (diff.length) diff.push('--no-renames', '--diff-merges=first-parent');
  return diff;
}

/** No total ({@link walkHistory} gives it). */
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
  const { stdout } = await runGitChecked(repoPath, args, { signal: rpcDeadlineSignal() });
  return parseDiffLog(stdout);
}

/** One `log --no-walk --stdin` started at once, so git's start-up overlaps the walk that produces the ids. */
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
    // With no ids git would fall back to HEAD: stop it and ignore its output.
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
        // Timed from here: until now git was only waiting for the walk.
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

export interface HistoryCommit extends ParsedCommitObject, LoggedDiff {}

/** No git process per page. Throws when an id is not a commit. */
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

export function historyCommits(listed: LoggedDiff[], objects: Map<string, ParsedCommitObject>): HistoryCommit[] {
  return listed.map((c) => {
    const object = objects.get(c.sha);
    if (!object) throw new Error(`commit ${c.sha} was listed but not read`);
    return { ...object, ...c };
  });
}
