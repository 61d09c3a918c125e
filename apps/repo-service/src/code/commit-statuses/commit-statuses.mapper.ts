import { toApiTime } from '@cairn/contracts';
import type { CommitStatusDto, CommitStatusState, PushedCommit, UserDto } from '@cairn/contracts';
import type { LogFileChange, ParsedCommitObject } from '@cairn/git';
import type { CommitStatusRow } from './commit-status-store.repository.js';

/** Gitea's `CommitStatus` JSON (`convert.ToCommitStatus`: `id` is the per-commit index; `updated_at` is the creation time). */
export function toCommitStatusDto(row: CommitStatusRow, repoApiUrl: string, creator: UserDto | null): CommitStatusDto {
  const created = toApiTime(row.createdAt);
  return {
    id: row.index,
    status: row.state as CommitStatusState,
    target_url: row.targetUrl,
    description: row.description,
    url: `${repoApiUrl}/statuses/${encodeURIComponent(row.sha)}`,
    context: row.context,
    creator,
    created_at: created,
    updated_at: created,
  };
}

/** The commit as Gitea's `PayloadCommit` (`convert.ToPayloadCommit`), for the `status` webhook. */
export function toPayloadCommit(
  sha: string,
  commit: ParsedCommitObject,
  files: LogFileChange[],
  url: string,
  loginByEmail: (email: string) => string,
): PushedCommit {
  const pick = (status: string) => files.filter((f) => f.status.startsWith(status)).map((f) => f.path);
  return {
    id: sha,
    message: commit.message,
    url,
    author: { name: commit.author.name, email: commit.author.email, username: loginByEmail(commit.author.email) },
    committer: {
      name: commit.committer.name,
      email: commit.committer.email,
      username: loginByEmail(commit.committer.email),
    },
    timestamp: commit.author.date,
    added: pick('A'),
    removed: pick('D'),
    modified: pick('M'),
  };
}
