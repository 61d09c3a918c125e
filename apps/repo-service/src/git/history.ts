import { runGit } from './git-command.js';
import { COMMIT_LOG_FORMAT, parseCommitLog, type LoggedCommit } from './log-format.js';

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

/** Number of commits matching the filter (`git rev-list --count` with exactly the log's filters). */
export async function countCommits(repoPath: string, f: HistoryFilter): Promise<number> {
  const { options, revisions } = filterArgs(f);
  const { stdout } = await runGit(repoPath, ['rev-list', '--count', ...options, ...revisions]);
  return Number(stdout.toString('utf8').trim());
}

/** True when at least one commit reachable from `commit` touched `path` (no date filters). */
export async function pathHasHistory(repoPath: string, commit: string, path: string): Promise<boolean> {
  const { stdout } = await runGit(repoPath, ['rev-list', '--max-count=1', '--end-of-options', commit, '--', path]);
  return stdout.length > 0;
}

export interface LogPageOptions {
  skip: number;
  limit: number;
  /** Changed files (`--raw`). */
  files: boolean;
  /** Line counts (`--numstat`). */
  stat: boolean;
}

/**
 * One page of commits in one `git log` process: headers in {@link COMMIT_LOG_FORMAT}, plus `--raw` and/or
 * `--numstat` when files or stats are wanted (merges against their first parent, as Gitea; the whole commit's
 * changes even when the list is limited to a path).
 */
export async function logPage(repoPath: string, f: HistoryFilter, page: LogPageOptions): Promise<LoggedCommit[]> {
  const { options, revisions } = filterArgs(f);
  const diff: string[] = [];
  if (page.files) diff.push('--raw');
  if (page.stat) diff.push('--numstat');
  if (diff.length) diff.push('--no-renames', '--diff-merges=first-parent', ...(f.path ? ['--full-diff'] : []));
  const args = [
    'log',
    '-z',
    `--format=${COMMIT_LOG_FORMAT}`,
    ...diff,
    `--skip=${Math.max(0, Math.trunc(page.skip))}`,
    `--max-count=${Math.max(0, Math.trunc(page.limit))}`,
    ...options,
    ...revisions,
  ];
  const { stdout } = await runGit(repoPath, args);
  return parseCommitLog(stdout);
}
