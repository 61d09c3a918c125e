/** NATS request-reply subjects for commit statuses, served by repo-service (queue group `repo-service`). */
export const CommitStatusSubjects = {
  /** Report a status for a commit (write access): `CreateCommitStatusRequest` → `CommitStatusDto`. */
  create: 'repo.commit-status.create',
  /** A commit's statuses (sort, state filter, paging): `ListCommitStatusesRequest` → `Paginated<CommitStatusDto>`. */
  list: 'repo.commit-status.list',
  /** The latest status per context and their combined state: `GetCombinedStatusRequest` → `CombinedStatusReply`. */
  combined: 'repo.commit-status.combined',
} as const;

