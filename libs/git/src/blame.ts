import type { BlameCommitDto, BlameRangeDto } from '@cairn/contracts';
import { formatGitTime } from './commit-object.js';
import { runGitChecked } from './git-process.js';
import { assertOid } from './refs.js';

/** Neighbouring lines of one commit are merged; a commit's headers come with its first group only. */
export function parseBlamePorcelain(output: string): { ranges: BlameRangeDto[]; commits: BlameCommitDto[] } {
  const ranges: BlameRangeDto[] = [];
  const commits = new Map<string, BlameCommitDto>();
  let current: BlameCommitDto | null = null;
  let line = 0;
  let time = 0;
  for (const text of output.split('\n')) {
    if (text.startsWith('\t')) {
      // The content line closes an entry: the line `line` belongs to `current`.
      if (!current) continue;
      const last = ranges.at(-1);
      if (last && last.sha === current.sha && last.start + last.count === line) last.count++;
      else ranges.push({ sha: current.sha, start: line, count: 1 });
      continue;
    }
    const header = /^([0-9a-f]{40,64}) \d+ (\d+)(?: \d+)?$/.exec(text);
    if (header) {
      line = Number(header[2]);
      current = commits.get(header[1]) ?? null;
      if (!current) {
        current = { sha: header[1], summary: '', authorName: '', authorEmail: '', authorDate: '' };
        commits.set(current.sha, current);
      }
      continue;
    }
    if (!current) continue;
    const space = text.indexOf(' ');
    const key = space < 0 ? text : text.slice(0, space);
    const value = space < 0 ? '' : text.slice(space + 1);
    if (key === 'author') current.authorName = value;
    else if (key === 'author-mail') current.authorEmail = value.replace(/^<|>$/g, '');
    else if (key === 'author-time') time = Number(value);
    else if (key === 'author-tz') current.authorDate = formatGitTime(time, value);
    else if (key === 'summary') current.summary = value;
  }
  return { ranges, commits: [...commits.values()] };
}

export async function blameFile(
  dir: string,
  commit: string,
  path: string,
  limits: { timeoutMs: number; maxOutputBytes: number },
): Promise<{ ranges: BlameRangeDto[]; commits: BlameCommitDto[] }> {
  const run = await runGitChecked(dir, ['blame', '--porcelain', assertOid(commit), '--', path], {
    timeoutMs: limits.timeoutMs,
    maxStdoutBytes: limits.maxOutputBytes,
  });
  return parseBlamePorcelain(run.stdout.toString('utf8'));
}
