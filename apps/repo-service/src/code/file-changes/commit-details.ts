import type { CommitDatesBody, FileOperation, IdentityBody } from '@cairn/contracts';
import { parseRfc3339 } from '@cairn/contracts';
import type { GitIdentity } from '@cairn/git';

/**
 * Gitea's default message of a files change: `Add a, b`, `Update c` (update, upload and rename) and `Delete d`, one
 * line per kind that occurs, in that order.
 */
export function defaultCommitMessage(files: { operation: FileOperation; path: string }[]): string {
  const of = (ops: FileOperation[]) => files.filter((f) => ops.includes(f.operation)).map((f) => f.path);
  const lines: string[] = [];
  const add = of(['create']);
  const update = of(['update', 'upload', 'rename']);
  const remove = of(['delete']);
  if (add.length) lines.push(`Add ${add.join(', ')}`);
  if (update.length) lines.push(`Update ${update.join(', ')}`);
  if (remove.length) lines.push(`Delete ${remove.join(', ')}`);
  return lines.join('\n');
}

/** The commit message as Gitea writes it: trimmed, one final newline, and the `Signed-off-by:` trailer when asked. */
export function commitMessage(message: string, signoff: boolean, committer: GitIdentity): string {
  const text = `${message.trim()}\n`;
  return signoff ? `${text}\nSigned-off-by: ${committer.name} <${committer.email}>\n` : text;
}

/** `0001-01-01T00:00:00Z` (Go's `time.Time{}`) in Unix seconds. */
const GO_ZERO_TIME_SECONDS = -62135596800;

/**
 * An RFC 3339 date as git's raw date (`@<unix seconds> <±hhmm>`), keeping the offset it was given in; undefined for
 * a missing date or Go's zero time (git uses the current time), null for one that is not RFC 3339.
 */
export function gitDate(value: string | undefined): string | undefined | null {
  if (value === undefined || value === '') return undefined;
  const instant = parseRfc3339(value);
  if (!instant) return null;
  // Go's zero time: Gitea reads it as "not given" (`IsZero`), and its Go SDK sends it for every unset date.
  if (instant.seconds === GO_ZERO_TIME_SECONDS) return undefined;
  const offset = /(Z|([+-])(\d{2}):(\d{2}))$/.exec(value)!;
  const zone = offset[1] === 'Z' ? '+0000' : `${offset[2]}${offset[3]}${offset[4]}`;
  return `@${instant.seconds} ${zone}`;
}

/** The commit dates of a change; null names the first date that is not RFC 3339. */
export function commitDates(dates: CommitDatesBody | undefined): { author?: string; committer?: string } | { invalid: string } {
  const author = gitDate(dates?.author);
  if (author === null) return { invalid: 'dates.author' };
  const committer = gitDate(dates?.committer);
  if (committer === null) return { invalid: 'dates.committer' };
  return { author, committer };
}

/**
 * Gitea's author and committer of a files change: an identity given with an e-mail is used as given (the doer's own
 * e-mail keeps the doer, renamed if a name is given); if only one is given it is both; if neither, the doer is both.
 */
export function commitIdentities(
  author: IdentityBody | undefined,
  committer: IdentityBody | undefined,
  doer: GitIdentity,
): { author: GitIdentity; committer: GitIdentity } {
  const pick = (given: IdentityBody | undefined): GitIdentity | null => {
    const email = given?.email?.trim();
    if (!email) return null;
    const name = given?.name?.trim() ?? '';
    if (email.toLowerCase() === doer.email.toLowerCase()) return { name: name || doer.name, email: doer.email };
    return { name: name || email.split('@')[0], email };
  };
  const c = pick(committer);
  const a = pick(author) ?? c ?? doer;
  return { author: a, committer: c ?? a };
}
