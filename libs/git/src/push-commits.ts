import { isObjectId, isZeroId } from '@cairn/contracts';
import { runGitChecked } from './git-process.js';
import type { LoggedCommitFields } from './log-format.js';

export interface RefUpdate {
  ref: string;
  old: string;
  new: string;
}

export interface GitCommitInfo extends LoggedCommitFields {
  id: string;
  added: string[];
  removed: string[];
  modified: string[];
}

export interface RefCommits {
  commits: GitCommitInfo[];
  total: number;
}

const RECORD = '\x1e';
const FIELDS = 8;
// One record per commit: RS, then NUL-terminated fields; `-z --name-status` then adds `<status>\0<path>\0` pairs.
const FORMAT = `--format=${RECORD}%H%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B%x00`;

/** A created branch: `new` minus every branch before this push (pushed ones already moved, so their old tips are added back). */
function rangeArgs(update: RefUpdate, push: RefUpdate[]): string[] {
  if (!isZeroId(update.old)) return ['--end-of-options', update.new, `^${update.old}`];
  const branches = push.filter((u) => u.ref.startsWith('refs/heads/'));
  const excludes = branches.map((u) => `--exclude=${u.ref.slice('refs/heads/'.length)}`);
  const oldTips = branches.filter((u) => !isZeroId(u.old) && isObjectId(u.old)).map((u) => `^${u.old}`);
  return ['--not', ...excludes, '--branches', '--not', '--end-of-options', update.new, ...oldTips];
}

export function parseCommitLog(output: string): GitCommitInfo[] {
  const tokens = output.split('\0');
  const commits: GitCommitInfo[] = [];
  let current: GitCommitInfo | undefined;
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i].replace(/^\n+/, '');
    if (token.startsWith(RECORD)) {
      const f = tokens.slice(i, i + FIELDS);
      const id = f[0].replace(/^\n+/, '').slice(1);
      if (f.length < FIELDS || !isObjectId(id)) throw new Error('unexpected git log output');
      current = {
        id,
        authorName: f[1],
        authorEmail: f[2],
        authorDate: f[3],
        committerName: f[4],
        committerEmail: f[5],
        committerDate: f[6],
        message: f[7],
        added: [],
        removed: [],
        modified: [],
      };
      commits.push(current);
      i += FIELDS;
      continue;
    }
    if (current && /^[ACDMRTUX]\d*$/.test(token) && i + 1 < tokens.length) {
      const path = tokens[i + 1];
      if (token === 'A') current.added.push(path);
      else if (token === 'D') current.removed.push(path);
      else current.modified.push(path);
      i += 2;
      continue;
    }
    i += 1;
  }
  return commits;
}

/** Gitea's push payload: merges against their first parent, no rename detection; a second git process only when the cap was hit. */
export async function refCommits(
  dir: string,
  update: RefUpdate,
  cap: number,
  push: RefUpdate[] = [update],
): Promise<RefCommits> {
  if (isZeroId(update.new) || !update.ref.startsWith('refs/heads/') || !isObjectId(update.new)) {
    return { commits: [], total: 0 };
  }
  if (!isZeroId(update.old) && !isObjectId(update.old)) return { commits: [], total: 0 };
  const range = rangeArgs(update, push);
  const { stdout: out } = await runGitChecked(dir, [
    'log',
    `--max-count=${cap}`,
    '--no-renames',
    '--diff-merges=first-parent',
    '--name-status',
    '-z',
    FORMAT,
    ...range,
  ]);
  const commits = parseCommitLog(out.toString('utf8'));
  let total = commits.length;
  if (commits.length >= cap) {
    total = Number((await runGitChecked(dir, ['rev-list', '--count', ...range])).stdout.toString('utf8').trim());
  }
  return { commits, total };
}
