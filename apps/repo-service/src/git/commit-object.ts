/** A person line of a raw commit object, rendered as Gitea renders it. */
export interface CommitPerson {
  name: string;
  email: string;
  /** RFC 3339 with the commit's own offset (`Z` for UTC). */
  date: string;
}

/** A raw commit object, parsed. */
export interface ParsedCommitObject {
  tree: string;
  parents: string[];
  author: CommitPerson;
  committer: CommitPerson;
  message: string;
}

/** Unix seconds + git's `±hhmm` offset → RFC 3339 in that offset (`Z` when zero), as Go formats a commit time. */
export function formatGitTime(seconds: number, tz: string): string {
  const m = /^([+-])(\d{2})(\d{2})$/.exec(tz);
  const offsetMin = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  const local = new Date((seconds + offsetMin * 60) * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  if (offsetMin === 0) return `${local}Z`;
  const abs = Math.abs(offsetMin);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${offsetMin < 0 ? '-' : '+'}${hh}:${mm}`;
}

function person(value: string): CommitPerson {
  const m = /^(.*?) ?<([^>]*)> (-?\d+) ([+-]\d{4})$/.exec(value);
  if (!m) return { name: value, email: '', date: formatGitTime(0, '+0000') };
  return { name: m[1], email: m[2], date: formatGitTime(Number(m[3]), m[4]) };
}

/**
 * Parses a raw commit object (`git cat-file commit`): headers up to the first blank line (`tree`, `parent`…,
 * `author`, `committer`; others such as `gpgsig`, with their space-indented continuation lines, are skipped), then
 * the message, kept byte for byte.
 */
export function parseCommitObject(data: Buffer): ParsedCommitObject {
  const text = data.toString('utf8');
  const split = text.indexOf('\n\n');
  const head = split < 0 ? text : text.slice(0, split);
  const message = split < 0 ? '' : text.slice(split + 2);
  const out: ParsedCommitObject = {
    tree: '',
    parents: [],
    author: person(''),
    committer: person(''),
    message,
  };
  for (const line of head.split('\n')) {
    if (line.startsWith(' ')) continue; // continuation of a multi-line header
    const sp = line.indexOf(' ');
    const key = sp < 0 ? line : line.slice(0, sp);
    const value = sp < 0 ? '' : line.slice(sp + 1);
    if (key === 'tree') out.tree = value;
    else if (key === 'parent') out.parents.push(value);
    else if (key === 'author') out.author = person(value);
    else if (key === 'committer') out.committer = person(value);
  }
  return out;
}
