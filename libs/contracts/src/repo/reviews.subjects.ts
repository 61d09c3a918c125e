/** Pull-request reviews and review requests, served by repo-service; every message is a `PullIndexRequest`. */
export const ReviewSubjects = {
  /** List reviews (another user's pending reviews are left out). */
  list: 'repo.pull-review.list',
  /** Create a review (pending, or submitted at once). */
  create: 'repo.pull-review.create',
  /** One review. */
  get: 'repo.pull-review.get',
  /** Submit a pending review. */
  submit: 'repo.pull-review.submit',
  /** Delete a review (its author or a site admin). */
  delete: 'repo.pull-review.delete',
  /** A review's code comments. */
  comments: 'repo.pull-review.comments',
  /** Dismiss an approval or change request (repository admin). */
  dismiss: 'repo.pull-review.dismiss',
  /** Undo a dismissal (repository admin). */
  undismiss: 'repo.pull-review.undismiss',
  /** Request reviews from users; replies the new requests. */
  requestAdd: 'repo.pull-review.request-add',
  /** Withdraw review requests. */
  requestRemove: 'repo.pull-review.request-remove',
  /** Where a pull request's reviews stand for merging (the web merge box). */
  summary: 'repo.pull-review.summary',
} as const;
