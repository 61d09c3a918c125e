import type {
  CommitAffectedFileDto, CommitDto, CommitOptions, PayloadCommitVerificationDto, UserDto,
} from '@cairn/contracts';
import type { HistoryCommit } from '@cairn/git';

/** Go's zero `time.Time` in JSON: what Gitea puts in `created` of parent entries. */
const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

function fileStatus(status: string): CommitAffectedFileDto['status'] {
  if (status === 'A') return 'added';
  if (status === 'D') return 'removed';
  return 'modified';
}

/** Gitea's `ToCommit`: the JSON of one commit, with the users whose e-mails match (or null) and its verification. */
export function toCommitDto(
  c: HistoryCommit,
  urls: { apiUrl: string; htmlUrl: string },
  users: Map<string, UserDto>,
  options: CommitOptions,
  verification: PayloadCommitVerificationDto | null,
): CommitDto {
  const commitUrl = `${urls.apiUrl}/git/commits/${c.sha}`;
  return {
    url: commitUrl,
    sha: c.sha,
    created: c.committer.date,
    html_url: `${urls.htmlUrl}/commit/${c.sha}`,
    commit: {
      url: commitUrl,
      author: { name: c.author.name, email: c.author.email, date: c.author.date },
      committer: { name: c.committer.name, email: c.committer.email, date: c.committer.date },
      message: c.message,
      // Gitea fills `tree` with the commit's own id and the trees URL of the commit (the trees API takes either).
      tree: { url: `${urls.apiUrl}/git/trees/${c.sha}`, sha: c.sha, created: c.committer.date },
      verification: options.verification ? verification : null,
    },
    author: users.get(c.author.email.toLowerCase()) ?? null,
    committer: users.get(c.committer.email.toLowerCase()) ?? null,
    parents: c.parents.map((p) => ({ url: `${urls.apiUrl}/git/commits/${p}`, sha: p, created: GO_ZERO_TIME })),
    files: options.files ? (c.files ?? []).map((f) => ({ filename: f.path, status: fileStatus(f.status) })) : null,
    stats: options.stat
      ? {
          total: (c.stats?.additions ?? 0) + (c.stats?.deletions ?? 0),
          additions: c.stats?.additions ?? 0,
          deletions: c.stats?.deletions ?? 0,
        }
      : null,
  };
}
