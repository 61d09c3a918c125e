/**
 * NATS request-reply subjects for pull-request reviews and review requests, served by repo-service (queue group
 * `repo-service`). Every message is a `PullIndexRequest` (a `RepoScopedRequest` naming one pull request).
 */
export const ReviewSubjects = {
  /** List reviews (another user's pending reviews are left out): `ListPullReviewsRequest` → `Paginated<PullReviewDto>`. */
  list: 'repo.pull-review.list',
  /** Create a review (pending, or submitted at once): `CreatePullReviewRequest` → `PullReviewDto`. */
  create: 'repo.pull-review.create',
  /** One review: `PullReviewIdRequest` → `PullReviewDto`. */
  get: 'repo.pull-review.get',
  /** Submit a pending review: `SubmitPullReviewRequest` → `PullReviewDto`. */
  submit: 'repo.pull-review.submit',
  /** Delete a review (its author or a site admin): `PullReviewIdRequest` → `null`. */
  delete: 'repo.pull-review.delete',
  /** A review's code comments: `PullReviewIdRequest` → `PullReviewCommentDto[]`. */
  comments: 'repo.pull-review.comments',
  /** Dismiss an approval or change request (repository admin): `DismissPullReviewRequest` → `PullReviewDto`. */
  dismiss: 'repo.pull-review.dismiss',
  /** Undo a dismissal (repository admin): `PullReviewIdRequest` → `PullReviewDto`. */
  undismiss: 'repo.pull-review.undismiss',
  /** Request reviews from users: `PullReviewRequestsRequest` → `PullReviewDto[]` (the new requests). */
  requestAdd: 'repo.pull-review.request-add',
  /** Withdraw review requests: `PullReviewRequestsRequest` → `null`. */
  requestRemove: 'repo.pull-review.request-remove',
  /**
   * Where a pull request's reviews stand for merging (the web merge box): `PullIndexRequest` →
   * `PullReviewSummaryDto` (approvals as the base branch's protection rule counts them, the approvals it requires,
   * the change requests standing).
   */
  summary: 'repo.pull-review.summary',
} as const;
