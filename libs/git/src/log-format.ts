import { isObjectId } from '@cairn/contracts';
/** A path token is only read right after its `:`-token, so no file name can be mistaken for a header. */

const RS = '\x1e';

/** Ids only: commits are read from the pooled cat-file and parsed as the branch API does; log gives order and diffs. */
export const COMMIT_ID_LOG_FORMAT = '%x1e%H';

export const LAST_COMMIT_LOG_FORMAT = '%x1e%H%x00%cI%x00%aI';
const LAST_COMMIT_FIELDS = 3;

/** Strict ISO 8601 with the commit's own offset (`+00:00`, not `Z`), as pull-request commits and push payloads show them. */
export interface LoggedCommitFields {
  authorName: string;
  authorEmail: string;
  authorDate: string;
  committerName: string;
  committerEmail: string;
  committerDate: string;
  message: string;
}

export interface LogFileChange {
  path: string;
  status: string;
}

export interface LoggedDiff {
  sha: string;
  files?: LogFileChange[];
  /** Binary files count 0. */
  stats?: { additions: number; deletions: number };
}

/** Go's RFC 3339 writes `Z` for a zero offset. */
export function normalizeGitDate(iso: string): string {
  return iso.endsWith('+00:00') ? `${iso.slice(0, -6)}Z` : iso;
}

export function splitNul(out: Buffer | string): string[] {
  const text = typeof out === 'string' ? out : out.toString('utf8');
  const tokens = text.split('\0');
  if (tokens.length && tokens[tokens.length - 1] === '') tokens.pop();
  return tokens;
}

const NUMSTAT = /^(\d+|-)\t(\d+|-)\t/;
export function parseDiffLog(out: Buffer | string): LoggedDiff[] {
  const tokens = splitNul(out);
  const commits: LoggedDiff[] = [];
  let current: LoggedDiff | null = null;
  let i = 0;
  while (i < tokens.length) {
    let t = tokens[i];
    if (t.startsWith('\n')) t = t.slice(1);
    if (t.startsWith(RS)) {
      current = { sha: t.slice(1) };
      if (!isObjectId(current.sha)) throw new Error('malformed commit id in git log output');
      commits.push(current);
      i += 1;
      continue;
    }
    if (!current) throw new Error('git log output does not start with a commit header');
    if (t === '') {
      i += 1;
      continue;
    }
    if (t.startsWith(':')) {
      const path = tokens[i + 1];
      if (path === undefined) throw new Error('raw diff entry without a path in git log output');
      const status = t.slice(t.lastIndexOf(' ') + 1).replace(/\d+$/, '');
      (current.files ??= []).push({ path, status });
      i += 2;
      continue;
    }
    const m = NUMSTAT.exec(t);
    if (m) {
      const stats = (current.stats ??= { additions: 0, deletions: 0 });
      if (m[1] !== '-') stats.additions += Number(m[1]);
      if (m[2] !== '-') stats.deletions += Number(m[2]);
      i += 1;
      continue;
    }
    throw new Error('unexpected token in git log output');
  }
  return commits;
}

export interface WalkedCommit {
  sha: string;
  committerDate: string;
  authorDate: string;
}

/** Incremental, so the caller can stop the walk early. */
export class WalkParser {
  private carry = '';
  private pending: string[] = [];
  private current: WalkedCommit | null = null;
  private readonly decoder = new TextDecoder('utf-8');

  constructor(private readonly onPath: (commit: WalkedCommit, path: string) => void) {}

  push(chunk: Buffer): void {
    const text = this.carry + this.decoder.decode(chunk, { stream: true });
    const parts = text.split('\0');
    this.carry = parts.pop() ?? '';
    for (const p of parts) this.pending.push(p);
    this.drain();
  }

  end(): void {
    this.carry += this.decoder.decode();
    if (this.carry) this.pending.push(this.carry);
    this.carry = '';
    this.drain();
  }

  private drain(): void {
    let i = 0;
    const tokens = this.pending;
    while (i < tokens.length) {
      let t = tokens[i];
      if (t.startsWith('\n')) t = t.slice(1);
      if (t.startsWith(RS)) {
        if (i + LAST_COMMIT_FIELDS > tokens.length) break; // the header continues in the next chunk
        this.current = {
          sha: t.slice(1),
          committerDate: normalizeGitDate(tokens[i + 1]),
          authorDate: normalizeGitDate(tokens[i + 2]),
        };
        i += LAST_COMMIT_FIELDS;
        continue;
      }
      if (t.startsWith(':')) {
        if (i + 1 >= tokens.length) break; // the path comes with the next chunk
        if (!this.current) throw new Error('git log output does not start with a commit header');
        this.onPath(this.current, tokens[i + 1]);
        i += 2;
        continue;
      }
      if (t === '') {
        i += 1;
        continue;
      }
      throw new Error('unexpected token in git log output');
    }
    this.pending = i === 0 ? tokens : tokens.slice(i);
  }
}
