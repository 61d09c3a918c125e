import type { UserDto } from '../identity/user.dto.js';
import type { CommentDto, IssueDto } from './issues.dto.js';
import type { MergeableState, PullRequestDto } from './pulls.dto.js';
import type { RepoEventRepository } from './repo-events.js';

/** Payloads carry what Gitea's webhook payloads need: the issue / pull-request JSON at the time of the change. */
export const IssueEvents = {
  /** An issue was opened. */
  opened: 'repo.evt.issue.opened',
  /** An issue's title or body changed. */
  edited: 'repo.evt.issue.edited',
  /** An issue was closed. */
  closed: 'repo.evt.issue.closed',
  /** An issue was reopened. */
  reopened: 'repo.evt.issue.reopened',
  /** An issue or pull request was locked (`isPull` tells which). */
  locked: 'repo.evt.issue.locked',
  /** An issue or pull request was unlocked. */
  unlocked: 'repo.evt.issue.unlocked',
  /** A user was assigned to an issue (webhook event `issue_assign`). */
  assigned: 'repo.evt.issue.assigned',
  /** A user was unassigned from an issue. */
  unassigned: 'repo.evt.issue.unassigned',
  /** Labels were added to or removed from an issue or pull request (webhook `issue_label`/`pull_request_label`). */
  labelUpdated: 'repo.evt.issue.label-updated',
  /** Every label was removed from an issue or pull request. */
  labelCleared: 'repo.evt.issue.label-cleared',
  /** An issue or pull request joined a milestone (webhook `issue_milestone`/`pull_request_milestone`). */
  milestoned: 'repo.evt.issue.milestoned',
  /** An issue or pull request left its milestone. */
  demilestoned: 'repo.evt.issue.demilestoned',
} as const;

export type IssueLabelAction = 'label_updated' | 'label_cleared';
export type IssueMilestoneAction = 'milestoned' | 'demilestoned';

/** Comments on issues and on pull requests (`isPull` tells which). */
export const IssueCommentEvents = {
  /** A comment was created. */
  created: 'repo.evt.issue-comment.created',
  /** A comment's body changed. */
  edited: 'repo.evt.issue-comment.edited',
  /** A comment was deleted. */
  deleted: 'repo.evt.issue-comment.deleted',
} as const;

/** Pull-request events. */
export const PullRequestEvents = {
  /** A pull request was opened. */
  opened: 'repo.evt.pull-request.opened',
  /** A pull request's title or body changed. */
  edited: 'repo.evt.pull-request.edited',
  /** A pull request was closed without merging. */
  closed: 'repo.evt.pull-request.closed',
  /** A closed pull request was reopened. */
  reopened: 'repo.evt.pull-request.reopened',
  /** A pull request was merged (Gitea sends the webhook action `closed` with `merged: true`). */
  merged: 'repo.evt.pull-request.merged',
  /** A user was assigned to a pull request (webhook event `pull_request_assign`). */
  assigned: 'repo.evt.pull-request.assigned',
  /** A user was unassigned from a pull request. */
  unassigned: 'repo.evt.pull-request.unassigned',
  /** New commits on the head branch (webhook event `pull_request_sync`, action `synchronized`). */
  synchronized: 'repo.evt.pull-request.synchronized',
  /** A mergeability check result was stored (not a Gitea webhook; for the web page and consumers). */
  mergeabilityChanged: 'repo.evt.pull-request.mergeability-changed',
} as const;

/** Gitea's `ChangesPayload`. */
export interface ChangedFrom {
  from: string;
}

export interface IssueChanges {
  title?: ChangedFrom;
  body?: ChangedFrom;
}

export interface IssueEventData {
  action: 'opened' | 'edited' | 'closed' | 'reopened' | 'locked' | 'unlocked' | 'assigned' | 'unassigned' | IssueLabelAction
    | IssueMilestoneAction;
  number: number;
  issue: IssueDto;
  /** Lock/unlock, label and milestone actions are published as issue events for pull requests too. */
  isPull: boolean;
  pullRequest?: PullRequestDto;
  changes?: IssueChanges;
  /** GitHub's `assignee`. */
  assignee?: UserDto;
  repository: RepoEventRepository;
  sender: UserDto | null;
}

export interface IssueCommentEventData {
  action: 'created' | 'edited' | 'deleted';
  issue: IssueDto;
  pullRequest?: PullRequestDto;
  comment: CommentDto;
  isPull: boolean;
  changes?: { body?: ChangedFrom };
  repository: RepoEventRepository;
  sender: UserDto | null;
}

export interface PullRequestEventData {
  /** `closed` also for `merged` (with `pullRequest.merged` true), as Gitea. */
  action: 'opened' | 'edited' | 'closed' | 'reopened' | 'synchronized' | 'mergeability_changed' | 'assigned' | 'unassigned';
  number: number;
  pullRequest: PullRequestDto;
  changes?: IssueChanges;
  before?: string;
  after?: string;
  /** GitHub's `assignee`. */
  assignee?: UserDto;
  /** The merge commit, or the new base tip for fast-forward and rebase. */
  commitId?: string;
  mergeability?: {
    status: MergeableState;
    conflictedFiles: string[];
    baseSha: string;
    headSha: string;
  };
  repository: RepoEventRepository;
  sender: UserDto | null;
}

/** Webhook events `pull_request_review_*` and `pull_request_review_request`. */
export const PullReviewEvents = {
  /** A review was submitted (approved, changes requested, or commented): webhook action `reviewed`. */
  submitted: 'repo.evt.pull-review.submitted',
  /** A user was asked to review: webhook action `review_requested`. */
  requested: 'repo.evt.pull-review.requested',
  /** A review request was withdrawn: webhook action `review_request_removed`. */
  requestRemoved: 'repo.evt.pull-review.request-removed',
} as const;

/** Gitea's `PullRequestPayload` with `review` or `requested_reviewer`. */
export interface PullReviewEventData {
  action: 'reviewed' | 'review_requested' | 'review_request_removed';
  number: number;
  pullRequest: PullRequestDto;
  /** Gitea's `ReviewPayload`. */
  review?: { type: 'approved' | 'rejected' | 'comment'; content: string };
  requestedReviewer?: UserDto;
  repository: RepoEventRepository;
  sender: UserDto | null;
}
