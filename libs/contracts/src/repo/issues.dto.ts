import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, MaxLength, Min, MinLength, ValidateNested,
} from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import type { UserDto } from '../identity/user.dto.js';
import type { LabelDto, MilestoneDto } from './labels.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';

export const ISSUE_STATES = ['open', 'closed'] as const;
export type IssueState = (typeof ISSUE_STATES)[number];

/** Gitea's `CreateIssueOption.title` has no explicit limit; the column is 255. */
export const ISSUE_TITLE_MAX_LENGTH = 255;
export const ISSUE_BODY_MAX_LENGTH = 256 * 1024;

/** Always accepted besides `[repository.issue] LOCK_REASONS`. */
export const GITHUB_LOCK_REASONS = ['off-topic', 'too heated', 'resolved', 'spam'] as const;

export interface PullRequestMetaDto {
  merged: boolean;
  merged_at: string | null;
  draft: boolean;
  html_url: string;
}

export interface RepositoryMetaDto {
  id: number;
  name: string;
  owner: string;
  full_name: string;
}

/** Plus GitHub's `locked` and `active_lock_reason` (Octokit reads them). */
export interface IssueDto {
  id: number;
  url: string;
  html_url: string;
  number: number;
  user: UserDto;
  original_author: string;
  original_author_id: number;
  title: string;
  body: string;
  ref: string;
  assets: unknown[];
  labels: LabelDto[];
  milestone: MilestoneDto | null;
  /** Gitea's deprecated single field: the first assignee. */
  assignee: UserDto | null;
  /** Gitea's nil slice. */
  assignees: UserDto[] | null;
  state: IssueState;
  is_locked: boolean;
  locked: boolean;
  active_lock_reason: string | null;
  comments: number;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  due_date: null;
  pull_request: PullRequestMetaDto | null;
  repository: RepositoryMetaDto;
  pin_order: number;
}

export interface CommentDto {
  id: number;
  html_url: string;
  pull_request_url: string;
  issue_url: string;
  user: UserDto;
  original_author: string;
  original_author_id: number;
  body: string;
  assets: unknown[];
  created_at: string;
  updated_at: string;
}

/** Gitea's `CommentType` names; `pull_ref`: a merged pull request closed the issue (body: its `#index`). */
export const COMMENT_TYPES = [
  'comment', 'close', 'reopen', 'lock', 'unlock', 'merge_pull', 'pull_push', 'pull_ref', 'change_title', 'assignees', 'label',
  'milestone',
] as const;
export type CommentType = (typeof COMMENT_TYPES)[number];

export interface TimelineCommentDto extends CommentDto {
  type: CommentType;
  old_title?: string;
  new_title?: string;
  assignee?: UserDto | null;
  removed_assignee?: boolean;
  /** Added (`body` is `1`) or removed (`body` empty); null once the label is deleted. */
  label?: LabelDto | null;
  milestone?: MilestoneDto | null;
  old_milestone?: MilestoneDto | null;
}

export const ASSIGNEES_MAX = 100;

/** Applied only with write access (ignored otherwise, as Gitea); on edit either field sets exactly the named users. */
export class AssigneesFields {
  @IsOptional() @IsString() @MaxLength(255) assignee?: string;
  @IsOptional() @IsArray() @ArrayMaxSize(ASSIGNEES_MAX) @IsString({ each: true }) @MaxLength(255, { each: true })
  assignees?: string[];
}

export class CreateIssueBody extends AssigneesFields {
  @IsString() @MinLength(1) @MaxLength(ISSUE_TITLE_MAX_LENGTH) title: string;
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body?: string;
  @IsOptional() @IsBoolean() closed?: boolean;
  @IsOptional() @IsArray() @IsInt({ each: true }) labels?: number[];
  @IsOptional() @IsInt() @Min(0) milestone?: number;
}

/** Gitea's edits skip empty titles. */
export const EmptyAsAbsent = (): PropertyDecorator => Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value));

export class EditIssueBody extends AssigneesFields {
  /** Empty: unchanged (Gitea's Go SDK always sends the field). */
  @EmptyAsAbsent() @IsOptional() @IsString() @MinLength(1) @MaxLength(ISSUE_TITLE_MAX_LENGTH) title?: string;
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body?: string;
  @IsOptional() @IsIn(ISSUE_STATES) state?: IssueState;
  @IsOptional() @IsInt() @Min(0) milestone?: number;
}

export class ListIssuesQuery extends ListQuery {
  @IsOptional() @IsIn(['open', 'closed', 'all']) state?: 'open' | 'closed' | 'all';
  @IsOptional() @IsIn(['issues', 'pulls']) type?: 'issues' | 'pulls';
  @IsOptional() @IsString() @MaxLength(255) q?: string;
  @IsOptional() @IsString() @MaxLength(255) assigned_by?: string;
  @IsOptional() @IsString() @MaxLength(255) created_by?: string;
  @IsOptional() @IsString() @MaxLength(4096) labels?: string;
  @IsOptional() @IsString() @MaxLength(4096) milestones?: string;
}

/** May be absent or `null`; repo-service checks the reason against GitHub's and `[repository.issue] LOCK_REASONS`. */
export class LockIssueBody {
  @IsOptional() lock_reason?: unknown;
}

export class CreateIssueCommentBody {
  @IsString() @MinLength(1) @MaxLength(ISSUE_BODY_MAX_LENGTH) body: string;
}

export class EditIssueCommentBody {
  @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body: string;
}

export class CreateIssueRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateIssueBody) body: CreateIssueBody;
}

export class ListIssuesRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListIssuesQuery) query: ListIssuesQuery;
}

export class IssueIndexRequest extends RepoScopedRequest {
  @Type(() => Number) @IsInt() @Min(1) index: number;
}

/** One page when `query` has `page` or `limit` (Gitea's SDK always sends both), else all of it. */
export class IssueTimelineRequest extends IssueIndexRequest {
  @IsOptional() @ValidateNested() @Type(() => ListQuery) query?: ListQuery;
}

export class EditIssueRequest extends IssueIndexRequest {
  @ValidateNested() @Type(() => EditIssueBody) body: EditIssueBody;
}

export class LockIssueRequest extends IssueIndexRequest {
  @IsOptional() @ValidateNested() @Type(() => LockIssueBody) body?: LockIssueBody | null;
}

export class CreateIssueCommentRequest extends IssueIndexRequest {
  @ValidateNested() @Type(() => CreateIssueCommentBody) body: CreateIssueCommentBody;
}

export class IssueCommentIdRequest extends RepoScopedRequest {
  @Type(() => Number) @IsInt() @Min(1) commentId: number;
}

export class EditIssueCommentRequest extends IssueCommentIdRequest {
  @ValidateNested() @Type(() => EditIssueCommentBody) body: EditIssueCommentBody;
}
