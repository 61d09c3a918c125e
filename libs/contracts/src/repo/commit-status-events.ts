/** Published by repo-service through its outbox. */
export const CommitStatusEvents = {
  /** A status was reported for a commit (webhook event `status`). */
  created: 'repo.evt.commit-status.created',
} as const;
