import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, MaxLength, Min, MinLength, ValidateNested,
} from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import type { UserDto } from '../identity/user.dto.js';
import type { LabelDto, MilestoneDto } from './labels.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';

/** Issue (and pull request) states, as Gitea's `StateType`. */
export const ISSUE_STATES = ['open', 'closed'] as const;
export type IssueState = (typeof ISSUE_STATES)[number];

/** Longest issue title Gitea accepts (`CreateIssueOption.title` has no explicit limit; the column is 255). */
export const ISSUE_TITLE_MAX_LENGTH = 255;
/** Longest issue or comment body accepted (bytes are not counted; characters are). */
export const ISSUE_BODY_MAX_LENGTH = 256 * 1024;

/** GitHub's lock reasons (`PUT …/issues/{n}/lock` `lock_reason`), always accepted besides `[repository.issue] LOCK_REASONS`. */
export const GITHUB_LOCK_REASONS = ['off-topic', 'too heated', 'resolved', 'spam'] as const;

/** Gitea's `PullRequestMeta`: set on an issue that is a pull request. */
export interface PullRequestMetaDto {
  merged: boolean;
  merged_at: string | null;
  draft: boolean;
  html_url: string;
}

/** Gitea's `RepositoryMeta`: the repository of an issue. */
export interface RepositoryMetaDto {
  id: number;
  name: string;
  owner: string;
  full_name: string;
}

/**
 * Gitea's `Issue`, plus GitHub's `locked` and `active_lock_reason` (Octokit reads them).
 */
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
  /** The first assignee (Gitea's deprecated single field). */
  assignee: UserDto | null;
  /** null when none (Gitea's nil slice). */
  assignees: UserDto[] | null;
  state: IssueState;
  /** Gitea's lock flag. */
  is_locked: boolean;
  /** GitHub's lock flag (same value as `is_locked`). */
  locked: boolean;
  /** GitHub: the reason given when locking, or null. */
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

/** Gitea's `Comment` (a plain issue comment, as `GET …/issues/{n}/comments` lists them). */
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

/**
 * Kinds of timeline entries Cairn records (Gitea's `CommentType` names). `pull_ref`: a merged pull request closed the
 * issue; its body is the pull request's `#index`.
 */
export const COMMENT_TYPES = [
  'comment', 'close', 'reopen', 'lock', 'unlock', 'merge_pull', 'pull_push', 'pull_ref', 'change_title', 'assignees', 'label',
  'milestone',
] as const;
export type CommentType = (typeof COMMENT_TYPES)[number];

/** Gitea's `TimelineComment` (the subset Cairn records): `GET …/issues/{n}/timeline`. */
export interface TimelineCommentDto extends CommentDto {
  /** `comment`, `lock`, `unlock`, `close`, `reopen`, `merge_pull`, `pull_push`, `pull_ref`, `change_title`, `assignees`, `label`, `milestone`. */
  type: CommentType;
  /** `change_title`: the title before and after. */
  old_title?: string;
  new_title?: string;
  /** `assignees`: who was assigned, or unassigned when `removed_assignee`. */
  assignee?: UserDto | null;
  removed_assignee?: boolean;
  /** `label`: the label added (`body` is `1`) or removed (`body` empty); null once the label is deleted. */
  label?: LabelDto | null;
  /** `milestone`: the milestone set and the one before (null: none, or deleted since). */
  milestone?: MilestoneDto | null;
  old_milestone?: MilestoneDto | null;
}

/** Most assignees one request may name. */
export const ASSIGNEES_MAX = 100;

/**
 * `assignee` / `assignees` of Gitea's create and edit options (issues and pull requests): usernames of users with
 * write access. Applied only when the caller has write access (ignored otherwise, as Gitea); on edit, giving either
 * field makes the assignees exactly the named users.
 */
export class AssigneesFields {
  @IsOptional() @IsString() @MaxLength(255) assignee?: string;
  @IsOptional() @IsArray() @ArrayMaxSize(ASSIGNEES_MAX) @IsString({ each: true }) @MaxLength(255, { each: true })
  assignees?: string[];
}

/** `POST /repos/{owner}/{repo}/issues` body (Gitea's `CreateIssueOption`). */
export class CreateIssueBody extends AssigneesFields {
  @IsString() @MinLength(1) @MaxLength(ISSUE_TITLE_MAX_LENGTH) title: string;
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body?: string;
  @IsOptional() @IsBoolean() closed?: boolean;
  /** Label ids (of the repository or its organization); set only when the poster has write access, as in Gitea. */
  @IsOptional() @IsArray() @IsInt({ each: true }) labels?: number[];
  /** Milestone id (0: none); set only when the poster has write access. */
  @IsOptional() @IsInt() @Min(0) milestone?: number;
}

/** An empty string read as "not given" (Gitea's edits skip empty titles). */
export const EmptyAsAbsent = (): PropertyDecorator => Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value));

/** `PATCH /repos/{owner}/{repo}/issues/{index}` body (Gitea's `EditIssueOption`; every field optional). */
export class EditIssueBody extends AssigneesFields {
  /** Empty: unchanged (Gitea edits the title only when one is given; its Go SDK always sends the field). */
  @EmptyAsAbsent() @IsOptional() @IsString() @MinLength(1) @MaxLength(ISSUE_TITLE_MAX_LENGTH) title?: string;
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body?: string;
  @IsOptional() @IsIn(ISSUE_STATES) state?: IssueState;
  /** Milestone id; 0 removes the milestone (write access). */
  @IsOptional() @IsInt() @Min(0) milestone?: number;
}

/** `GET /repos/{owner}/{repo}/issues` query (the part of Gitea's parameters Cairn supports). */
export class ListIssuesQuery extends ListQuery {
  /** `open` (default), `closed` or `all`. */
  @IsOptional() @IsIn(['open', 'closed', 'all']) state?: 'open' | 'closed' | 'all';
  /** `issues` or `pulls`; both when absent. */
  @IsOptional() @IsIn(['issues', 'pulls']) type?: 'issues' | 'pulls';
  /** Keyword matched against titles and bodies (case-insensitive). */
  @IsOptional() @IsString() @MaxLength(255) q?: string;
  /** Only issues assigned to this user (login). */
  @IsOptional() @IsString() @MaxLength(255) assigned_by?: string;
  /** Only issues opened by this user (login). */
  @IsOptional() @IsString() @MaxLength(255) created_by?: string;
  /** Comma-separated label names: issues carrying all of them. */
  @IsOptional() @IsString() @MaxLength(4096) labels?: string;
  /** Comma-separated milestone titles or ids: issues in any of them. */
  @IsOptional() @IsString() @MaxLength(4096) milestones?: string;
}

/**
 * `PUT …/issues/{index}/lock` body (Gitea's `LockIssueOption`, GitHub's lock body). The body may be absent or `null`;
 * the reason is checked by repo-service against GitHub's reasons and `[repository.issue] LOCK_REASONS`.
 */
export class LockIssueBody {
  /** A reason (case-insensitive); absent, null or empty means none. Type-checked by repo-service (422 otherwise). */
  @IsOptional() lock_reason?: unknown;
}

/** `POST …/issues/{index}/comments` body (Gitea's `CreateIssueCommentOption`). */
export class CreateIssueCommentBody {
  @IsString() @MinLength(1) @MaxLength(ISSUE_BODY_MAX_LENGTH) body: string;
}

/** `PATCH …/issues/comments/{id}` body (Gitea's `EditIssueCommentOption`). */
export class EditIssueCommentBody {
  @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body: string;
}

// ---- messages (repo-service) ------------------------------------------------------------------------------------

/** `repo.issue.create`. */
export class CreateIssueRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateIssueBody) body: CreateIssueBody;
}

/** `repo.issue.list`: replies `Paginated<IssueDto>`. */
export class ListIssuesRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListIssuesQuery) query: ListIssuesQuery;
}

/** Every message about one issue (or pull request) of a repository, by its number. */
export class IssueIndexRequest extends RepoScopedRequest {
  /** The issue or pull-request number (not the database id). */
  @Type(() => Number) @IsInt() @Min(1) index: number;
}

/**
 * `repo.issue.timeline`: one page of the timeline when `query` has `page` or `limit` (Gitea's SDK always sends both),
 * else all of it.
 */
export class IssueTimelineRequest extends IssueIndexRequest {
  @IsOptional() @ValidateNested() @Type(() => ListQuery) query?: ListQuery;
}

/** `repo.issue.edit`. */
export class EditIssueRequest extends IssueIndexRequest {
  @ValidateNested() @Type(() => EditIssueBody) body: EditIssueBody;
}

/** `repo.issue.lock`: replies `null`. */
export class LockIssueRequest extends IssueIndexRequest {
  @IsOptional() @ValidateNested() @Type(() => LockIssueBody) body?: LockIssueBody | null;
}

/** `repo.issue-comment.create`. */
export class CreateIssueCommentRequest extends IssueIndexRequest {
  @ValidateNested() @Type(() => CreateIssueCommentBody) body: CreateIssueCommentBody;
}

/** Every message about one comment of a repository, by its id. */
export class IssueCommentIdRequest extends RepoScopedRequest {
  @Type(() => Number) @IsInt() @Min(1) commentId: number;
}

/** `repo.issue-comment.edit`. */
export class EditIssueCommentRequest extends IssueCommentIdRequest {
  @ValidateNested() @Type(() => EditIssueCommentBody) body: EditIssueCommentBody;
}
