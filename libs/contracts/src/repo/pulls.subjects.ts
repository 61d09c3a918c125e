/** Served by repo-service; `check-target`/`report-mergeability` come from merge-check-worker. */
export const PullSubjects = {
  /** Open a pull request (checked at once). */
  create: 'repo.pull-request.create',
  /** List pull requests (never triggers checks). */
  list: 'repo.pull-request.list',
  /** Get one pull request (a view queues a delayed check). */
  get: 'repo.pull-request.get',
  /** Get the open pull request for a base and head branch (a view). */
  getByBranches: 'repo.pull-request.get-by-branches',
  /** The commit a head (`branch` or a fork's `owner:branch`) names, copied into this repository (the compare page). */
  headCommit: 'repo.pull-request.head-commit',
  /** Edit title, body, state. */
  edit: 'repo.pull-request.edit',
  /** The commits of a pull request. */
  commits: 'repo.pull-request.commits',
  /** The changed files of a pull request. */
  files: 'repo.pull-request.files',
  /** Whether a pull request is merged. */
  isMerged: 'repo.pull-request.is-merged',
  /** Merge (write access). */
  merge: 'repo.pull-request.merge',
  /** Bring the head branch up to date with the base (write access). */
  update: 'repo.pull-request.update',

  /** What a check of one pull request needs. */
  checkTarget: 'repo.pull-request.check-target',
  /** A check's result (stale ones are ignored). */
  reportMergeability: 'repo.pull-request.report-mergeability',
} as const;
