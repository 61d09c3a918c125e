/**
 * NATS request-reply subjects for issues and their comments, served by repo-service (queue group `repo-service`).
 * Every request is a `RepoScopedRequest` (actor, resolved repository, access) plus the fields named.
 */
export const IssueSubjects = {
  /** Open an issue: `CreateIssueRequest` → `IssueDto`. */
  create: 'repo.issue.create',
  /** List issues and/or pull requests: `ListIssuesRequest` → `Paginated<IssueDto>`. */
  list: 'repo.issue.list',
  /** Get one issue (or pull request as an issue): `IssueIndexRequest` → `IssueDto`. */
  get: 'repo.issue.get',
  /** Edit title, body, state: `EditIssueRequest` → `IssueDto`. */
  edit: 'repo.issue.edit',
  /** Lock (write access; idempotent): `LockIssueRequest` → `null`. */
  lock: 'repo.issue.lock',
  /** Unlock (write access; idempotent): `IssueIndexRequest` → `null`. */
  unlock: 'repo.issue.unlock',
  /** The timeline (comments and events such as lock/unlock): `IssueTimelineRequest` → `Paginated<TimelineCommentDto>`. */
  timeline: 'repo.issue.timeline',
  /** List an issue's comments: `IssueIndexRequest` → `Paginated<CommentDto>`. */
  commentList: 'repo.issue-comment.list',
  /** Comment on an issue: `CreateIssueCommentRequest` → `CommentDto`. */
  commentCreate: 'repo.issue-comment.create',
  /** Get a comment: `IssueCommentIdRequest` → `CommentDto`. */
  commentGet: 'repo.issue-comment.get',
  /** Edit a comment (its author, or write access): `EditIssueCommentRequest` → `CommentDto`. */
  commentEdit: 'repo.issue-comment.edit',
  /** Delete a comment (its author, or write access): `IssueCommentIdRequest` → `null`. */
  commentDelete: 'repo.issue-comment.delete',
  /** Users who can be assigned (write access): `RepoScopedRequest` → `UserDto[]`. */
  assignees: 'repo.issue.assignees',
} as const;
