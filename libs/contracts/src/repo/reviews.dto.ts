import { Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsInt, IsOptional, IsString, Matches, MaxLength, Min, MinLength,
  ValidateNested,
} from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import type { TeamDto } from '../identity/org.dto.js';
import type { UserDto } from '../identity/user.dto.js';
import { ISSUE_BODY_MAX_LENGTH } from './issues.dto.js';
import { PullIndexRequest } from './pulls.dto.js';

/**
 * Gitea's `ReviewStateType`: what a review says. `REQUEST_REVIEW` is a pending review request (no content);
 * `PENDING` a draft only its author sees.
 */
export const REVIEW_STATES = ['APPROVED', 'PENDING', 'COMMENT', 'REQUEST_CHANGES', 'REQUEST_REVIEW'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** Most code comments in one review, and most reviewers in one request. */
export const REVIEW_COMMENTS_MAX = 500;
export const REVIEW_REQUESTS_MAX = 100;

/** Gitea's `PullReview`. `team` is set on team review requests. */
export interface PullReviewDto {
  id: number;
  user: UserDto | null;
  /** The team a team review request asks (then `user` is null). */
  team: TeamDto | null;
  state: ReviewState;
  body: string;
  commit_id: string;
  stale: boolean;
  official: boolean;
  dismissed: boolean;
  comments_count: number;
  submitted_at: string;
  updated_at: string;
  html_url: string;
  pull_request_url: string;
}

/**
 * Reply of `repo.pull-review.summary`: the official approvals the base branch's protection rule counts (all official
 * ones without a rule), the approvals the rule requires (0: none), and the reviewers whose latest review requests
 * changes (not dismissed), with whether the rule blocks merging on them.
 */
export interface PullReviewSummaryDto {
  approvals: number;
  required_approvals: number;
  change_requests: number;
  block_on_rejected_reviews: boolean;
}

/** Gitea's `PullReviewComment`. `position` is the new-side line, `original_position` the old-side one (0: none). */
export interface PullReviewCommentDto {
  id: number;
  body: string;
  user: UserDto | null;
  resolver: null;
  pull_request_review_id: number;
  created_at: string;
  updated_at: string;
  path: string;
  commit_id: string;
  original_commit_id: string;
  diff_hunk: string;
  position: number;
  original_position: number;
  html_url: string;
  pull_request_url: string;
}

/** Gitea's `CreatePullReviewComment`: a line on the new side (`new_position`) or the old side (`old_position`). */
export class CreatePullReviewCommentBody {
  @IsString() @MinLength(1) @MaxLength(4096) path: string;
  @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body: string;
  @IsOptional() @IsInt() @Min(0) new_position?: number;
  @IsOptional() @IsInt() @Min(0) old_position?: number;
}

/** `POST …/pulls/{index}/reviews` body (Gitea's `CreatePullReviewOptions`). */
export class CreatePullReviewBody {
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body?: string;
  /** `APPROVED`, `REQUEST_CHANGES`, `COMMENT`; anything else (or nothing) keeps a draft (`PENDING`), as Gitea. */
  @IsOptional() @IsString() @MaxLength(32) event?: string;
  /** The commit reviewed; the head of the pull request when empty. */
  @IsOptional() @IsString() @Matches(/^([0-9a-fA-F]{4,64})?$/) commit_id?: string;
  @IsOptional() @IsArray() @ArrayMaxSize(REVIEW_COMMENTS_MAX) @ValidateNested({ each: true })
  @Type(() => CreatePullReviewCommentBody)
  comments?: CreatePullReviewCommentBody[];
}

/** `POST …/pulls/{index}/reviews/{id}` body (Gitea's `SubmitPullReviewOptions`). */
export class SubmitPullReviewBody {
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body?: string;
  @IsOptional() @IsString() @MaxLength(32) event?: string;
}

/** `POST …/reviews/{id}/dismissals` body (Gitea's `DismissPullReviewOptions`). */
export class DismissPullReviewBody {
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) message?: string;
  /** Also dismiss the reviewer's earlier approvals and change requests. */
  @IsOptional() @IsBoolean() priors?: boolean;
}

/** `POST`/`DELETE …/pulls/{index}/requested_reviewers` body (Gitea's `PullReviewRequestOptions`). */
export class PullReviewRequestBody {
  @IsOptional() @IsArray() @ArrayMaxSize(REVIEW_REQUESTS_MAX) @IsString({ each: true }) @MaxLength(255, { each: true })
  reviewers?: string[];
  @IsOptional() @IsArray() @ArrayMaxSize(REVIEW_REQUESTS_MAX) @IsString({ each: true }) @MaxLength(255, { each: true })
  team_reviewers?: string[];
}

// ---- messages (repo-service) ------------------------------------------------------------------------------------

/** `repo.pull-review.list`. */
export class ListPullReviewsRequest extends PullIndexRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

/** `repo.pull-review.create`. */
export class CreatePullReviewRequest extends PullIndexRequest {
  @ValidateNested() @Type(() => CreatePullReviewBody) body: CreatePullReviewBody;
}

/** Every message about one review: `get`, `delete`, `comments`, `undismiss`. */
export class PullReviewIdRequest extends PullIndexRequest {
  @Type(() => Number) @IsInt() @Min(1) id: number;
}

/** `repo.pull-review.submit`. */
export class SubmitPullReviewRequest extends PullReviewIdRequest {
  @ValidateNested() @Type(() => SubmitPullReviewBody) body: SubmitPullReviewBody;
}

/** `repo.pull-review.dismiss`. */
export class DismissPullReviewRequest extends PullReviewIdRequest {
  @ValidateNested() @Type(() => DismissPullReviewBody) body: DismissPullReviewBody;
}

/** `repo.pull-review.request-add`, `repo.pull-review.request-remove`. */
export class PullReviewRequestsRequest extends PullIndexRequest {
  @ValidateNested() @Type(() => PullReviewRequestBody) body: PullReviewRequestBody;
}
