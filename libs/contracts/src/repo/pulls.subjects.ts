/**
 * NATS request-reply subjects for pull requests and their mergeability, served by repo-service (queue group
 * `repo-service`). API messages are `RepoScopedRequest`s; the mergeability ones (`check-target`,
 * `report-mergeability`) come from merge-check-worker.
 */
export const PullSubjects = {
  /** Open a pull request (checked at once): `CreatePullRequest` → `PullRequestDto`. */
  create: 'repo.pull-request.create',
  /** List pull requests (never triggers checks): `ListPullsRequest` → `Paginated<PullRequestDto>`. */
  list: 'repo.pull-request.list',
  /** Get one pull request (a view queues a delayed check): `GetPullRequest` → `PullRequestDto`. */
  get: 'repo.pull-request.get',
  /** Get the open pull request for a base and head branch (a view): `GetPullByBranchesRequest` → `PullRequestDto`. */
  getByBranches: 'repo.pull-request.get-by-branches',
  /**
   * The commit a pull-request head names — `branch`, or `owner:branch` of a fork (as `create` takes it) — present in
   * this repository (a fork's is copied in, as opening the pull request would): `PullHeadRequest` → `PullHeadReply`.
   * The web compare page's way to compare with a fork.
   */
  headCommit: 'repo.pull-request.head-commit',
  /** Edit title, body, state: `EditPullRequest` → `PullRequestDto`. */
  edit: 'repo.pull-request.edit',
  /** The commits of a pull request: `PullPageRequest` → `Paginated<CommitDto>`. */
  commits: 'repo.pull-request.commits',
  /** The changed files of a pull request: `PullPageRequest` → `Paginated<ChangedFileDto>`. */
  files: 'repo.pull-request.files',
  /** Whether a pull request is merged: `PullIndexRequest` → `boolean`. */
  isMerged: 'repo.pull-request.is-merged',
  /** Merge (write access): `MergePullRequest` → `null`. */
  merge: 'repo.pull-request.merge',
  /** Bring the head branch up to date with the base (write access): `UpdatePullRequest` → `null`. */
  update: 'repo.pull-request.update',

  /** What a check of one pull request needs: `CheckTargetRequest` → `CheckTargetReply | null`. */
  checkTarget: 'repo.pull-request.check-target',
  /** A check's result (stale ones are ignored): `ReportMergeabilityRequest` → `ReportMergeabilityReply`. */
  reportMergeability: 'repo.pull-request.report-mergeability',
} as const;
