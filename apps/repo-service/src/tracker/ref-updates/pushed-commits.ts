import type { PushedCommit, RefUpdate, RepoUrls, UserDto } from '@cairn/contracts';
import { refCommits, type GitCommitInfo } from '@cairn/git';
import type { RefUpdateLine } from '../../git-core/transport/push-log.js';

/** At most this many distinct commit e-mails are resolved to user names per push. */
const MAX_EMAIL_LOOKUPS = 100;

export interface PushPeople {
  users: Map<number, UserDto>;
  byEmail: Map<string, number>;
}

/** Each ref update's commits (from git); a listing that fails is logged and carried as no commits. */
export async function listRefCommits(
  dir: string,
  lines: RefUpdateLine[],
  cap: number,
  onError: (line: RefUpdateLine, err: Error) => void,
) {
  const out = [];
  for (const line of lines) {
    if (line.renamed) {
      out.push({ commits: [] as GitCommitInfo[], total: 0 });
      continue;
    }
    out.push(
      await refCommits(dir, line, cap, lines).catch((err: Error) => {
        onError(line, err);
        return { commits: [] as GitCommitInfo[], total: 0 };
      }),
    );
  }
  return out;
}

export function commitEmails(commits: GitCommitInfo[]): string[] {
  const emails = new Set<string>();
  for (const c of commits) {
    for (const e of [c.authorEmail, c.committerEmail]) {
      if (e && emails.size < MAX_EMAIL_LOOKUPS) emails.add(e.toLowerCase());
    }
  }
  return [...emails];
}

/** A ref update as `repo.evt.push.received` carries it (Gitea's push payload commits). */
export function toRefUpdate(
  line: RefUpdateLine,
  listed: { commits: GitCommitInfo[]; total: number },
  urls: RepoUrls,
  people: PushPeople,
): RefUpdate {
  const username = (email: string) => {
    const id = people.byEmail.get(email.toLowerCase());
    return (id !== undefined && people.users.get(id)?.login) || '';
  };
  return {
    ref: line.ref,
    old: line.old,
    new: line.new,
    commits: listed.commits.map((c): PushedCommit => ({
      id: c.id,
      message: c.message,
      url: urls.commit(c.id),
      author: { name: c.authorName, email: c.authorEmail, username: username(c.authorEmail) },
      committer: { name: c.committerName, email: c.committerEmail, username: username(c.committerEmail) },
      timestamp: c.authorDate,
      added: c.added,
      removed: c.removed,
      modified: c.modified,
    })),
    totalCommits: listed.total,
    ...(line.renamed ? { renamed: true as const } : {}),
  };
}
