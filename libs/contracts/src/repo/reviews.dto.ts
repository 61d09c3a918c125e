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

/** `REQUEST_REVIEW` is a pending review request (no content); `PENDING` a draft only its author sees. */
export const REVIEW_STATES = ['APPROVED', 'PENDING', 'COMMENT', 'REQUEST_CHANGES', 'REQUEST_REVIEW'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const REVIEW_COMMENTS_MAX = 500;
export const REVIEW_REQUESTS_MAX = 100;

export interface PullReviewDto {
  id: number;
  user: UserDto | null;
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

/** Approvals as the base branch's rule counts them (all official ones without a rule), and the standing change requests. */
export interface PullReviewSummaryDto {
  approvals: number;
  required_approvals: number;
  change_requests: number;
  block_on_rejected_reviews: boolean;
}

/** `position` is the new-side line, `original_position` the old-side one (0: none). */
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

export class CreatePullReviewCommentBody {
  @IsString() @MinLength(1) @MaxLength(4096) path: string;
  @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body: string;
  @IsOptional() @IsInt() @Min(0) new_position?: number;
  @IsOptional() @IsInt() @Min(0) old_position?: number;
}

export class CreatePullReviewBody {
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body?: string;
  /** Anything else (or nothing) keeps a draft (`PENDING`), as Gitea. */
  @IsOptional() @IsString() @MaxLength(32) event?: string;
  @IsOptional() @IsString() @Matches(/^([0-9a-fA-F]{4,64})?$/) commit_id?: string;
  @IsOptional() @IsArray() @ArrayMaxSize(REVIEW_COMMENTS_MAX) @ValidateNested({ each: true })
  @Type(() => CreatePullReviewCommentBody)
  comments?: CreatePullReviewCommentBody[];
}

export class SubmitPullReviewBody {
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body?: string;
  @IsOptional() @IsString() @MaxLength(32) event?: string;
}

export class DismissPullReviewBody {
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) message?: string;
  @IsOptional() @IsBoolean() priors?: boolean;
}

export class PullReviewRequestBody {
  @IsOptional() @IsArray() @ArrayMaxSize(REVIEW_REQUESTS_MAX) @IsString({ each: true }) @MaxLength(255, { each: true })
  reviewers?: string[];
  @IsOptional() @IsArray() @ArrayMaxSize(REVIEW_REQUESTS_MAX) @IsString({ each: true }) @MaxLength(255, { each: true })
  team_reviewers?: string[];
}

export class ListPullReviewsRequest extends PullIndexRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

export class CreatePullReviewRequest extends PullIndexRequest {
  @ValidateNested() @Type(() => CreatePullReviewBody) body: CreatePullReviewBody;
}

export class PullReviewIdRequest extends PullIndexRequest {
  @Type(() => Number) @IsInt() @Min(1) id: number;
}

export class SubmitPullReviewRequest extends PullReviewIdRequest {
  @ValidateNested() @Type(() => SubmitPullReviewBody) body: SubmitPullReviewBody;
}

export class DismissPullReviewRequest extends PullReviewIdRequest {
  @ValidateNested() @Type(() => DismissPullReviewBody) body: DismissPullReviewBody;
}

export class PullReviewRequestsRequest extends PullIndexRequest {
  @ValidateNested() @Type(() => PullReviewRequestBody) body: PullReviewRequestBody;
}
