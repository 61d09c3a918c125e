/** Issues and their comments, served by repo-service; every request is a `RepoScopedRequest` plus the fields named. */
export const IssueSubjects = {
  /** Open an issue. */
  create: 'repo.issue.create',
  /** List issues and/or pull requests. */
  list: 'repo.issue.list',
  /** Get one issue (or pull request as an issue). */
  get: 'repo.issue.get',
  /** Edit title, body, state. */
  edit: 'repo.issue.edit',
  /** Lock (write access; idempotent). */
  lock: 'repo.issue.lock',
  /** Unlock (write access; idempotent). */
  unlock: 'repo.issue.unlock',
  /** The timeline (comments and events such as lock/unlock). */
  timeline: 'repo.issue.timeline',
  /** List an issue's comments. */
  commentList: 'repo.issue-comment.list',
  /** Comment on an issue. */
  commentCreate: 'repo.issue-comment.create',
  /** Get a comment. */
  commentGet: 'repo.issue-comment.get',
  /** Edit a comment (its author, or write access). */
  commentEdit: 'repo.issue-comment.edit',
  /** Delete a comment (its author, or write access). */
  commentDelete: 'repo.issue-comment.delete',
  /** Users who can be assigned (write access). */
  assignees: 'repo.issue.assignees',
} as const;
