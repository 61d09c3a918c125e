/** Served by repo-service (queue group `repo-service`). */
export const CommitStatusSubjects = {
  /** Report a status for a commit (write access). */
  create: 'repo.commit-status.create',
  /** A commit's statuses (sort, state filter, paging). */
  list: 'repo.commit-status.list',
  /** The latest status per context and their combined state. */
  combined: 'repo.commit-status.combined',
} as const;

