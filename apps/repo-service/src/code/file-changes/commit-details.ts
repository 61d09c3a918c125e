import type { CommitDatesBody, FileOperation, IdentityBody } from '@cairn/contracts';
import { parseRfc3339 } from '@cairn/contracts';
import type { GitIdentity } from '@cairn/git';

/** Gitea's default message: `Add a, b`, `Update c`, `Delete d`, one line per kind that occurs. */
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

const GO_ZERO_TIME_SECONDS = -62135596800;

/** Keeps the given offset; undefined for none or Go's zero time (git uses now), null for non-RFC 3339. */
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

/** Gitea's rule: a given identity with e-mail is used as given; one given is both; neither: the doer is both. */
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
