import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested,
} from 'class-validator';
import { ListQuery, MAX_INT32 } from '../common/pagination.js';
import { ABBREVIATED_OBJECT_ID_PATTERN, OBJECT_ID_PATTERN } from '../git/object-id.js';
import type { TeamDto } from '../identity/org.dto.js';
import type { UserDto } from '../identity/user.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';
import { MERGE_STYLES, type RepositoryDto } from './repository.dto.js';
import type { LabelDto, MilestoneDto } from './labels.dto.js';
import {
  AssigneesFields, EmptyAsAbsent, ISSUE_BODY_MAX_LENGTH, ISSUE_STATES, ISSUE_TITLE_MAX_LENGTH, type IssueState,
} from './issues.dto.js';

/** A *delayed* check stays `checking` until someone looks. */
export const MERGEABLE_STATES = ['checking', 'mergeable', 'conflict', 'error'] as const;
export type MergeableState = (typeof MERGEABLE_STATES)[number];

export const MERGE_DO_STYLES = [...MERGE_STYLES, 'manually-merged'] as const;
export type MergeDoStyle = (typeof MERGE_DO_STYLES)[number];

export const UPDATE_STYLES = ['merge', 'rebase'] as const;
export type UpdateStyle = (typeof UPDATE_STYLES)[number];

export const PULL_SORTS = [
  'oldest', 'recentupdate', 'recentclose', 'leastupdate', 'mostcomment', 'leastcomment', 'priority',
] as const;
export type PullSort = (typeof PULL_SORTS)[number];

export interface PRBranchInfoDto {
  label: string;
  ref: string;
  sha: string;
  repo_id: number;
  repo: RepositoryDto | null;
}

/** Plus GitHub's lock fields and Cairn's merge state; `mergeable` only from a check of the current commits. */
export interface PullRequestDto {
  id: number;
  url: string;
  number: number;
  user: UserDto;
  title: string;
  body: string;
  labels: LabelDto[];
  milestone: MilestoneDto | null;
  /** Gitea's deprecated single field: the first assignee. */
  assignee: UserDto | null;
  assignees: UserDto[] | null;
  requested_reviewers: UserDto[] | null;
  requested_reviewers_teams: TeamDto[] | null;
  state: IssueState;
  draft: boolean;
  is_locked: boolean;
  locked: boolean;
  active_lock_reason: string | null;
  comments: number;
  review_comments: number;
  /** Against the merge base; only on single-PR answers (absent in lists). */
  additions?: number;
  deletions?: number;
  changed_files?: number;
  html_url: string;
  diff_url: string;
  patch_url: string;
  mergeable: boolean;
  merged: boolean;
  merged_at: string | null;
  merge_commit_sha: string | null;
  merged_by: UserDto | null;
  allow_maintainer_edit: boolean;
  base: PRBranchInfoDto;
  head: PRBranchInfoDto;
  merge_base: string;
  due_date: null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  pin_order: number;
  mergeable_state: MergeableState;
  conflicted_files: string[];
}

export interface ChangedFileDto {
  filename: string;
  previous_filename?: string;
  status: string;
  additions: number;
  deletions: number;
  changes: number;
  html_url: string;
  contents_url: string;
  raw_url: string;
}

export class CreatePullBody extends AssigneesFields {
  /** `branch` (this repository) or `owner:branch` (this repository's owner, a fork's owner, or the forked-from owner). */
  @IsString() @MinLength(1) @MaxLength(255) head: string;
  @IsString() @MinLength(1) @MaxLength(255) base: string;
  @IsString() @MinLength(1) @MaxLength(ISSUE_TITLE_MAX_LENGTH) title: string;
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body?: string;
  @IsOptional() @IsArray() @IsInt({ each: true }) labels?: number[];
  @IsOptional() @IsInt() @Min(0) milestone?: number;
}

export class EditPullBody extends AssigneesFields {
  @EmptyAsAbsent() @IsOptional() @IsString() @MinLength(1) @MaxLength(ISSUE_TITLE_MAX_LENGTH) title?: string;
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body?: string;
  @IsOptional() @IsIn(ISSUE_STATES) state?: IssueState;
  @IsOptional() @IsArray() @IsInt({ each: true }) labels?: number[];
  @IsOptional() @IsInt() @Min(0) milestone?: number;
  /** The poster only, as Gitea's `SetAllowEdits`. */
  @IsOptional() @IsBoolean() allow_maintainer_edit?: boolean;
}

export class ListPullsQuery extends ListQuery {
  @IsOptional() @IsIn(['open', 'closed', 'all']) state?: 'open' | 'closed' | 'all';
  @IsOptional() @IsIn(PULL_SORTS) sort?: PullSort;
  @IsOptional() @IsString() @MaxLength(255) base_branch?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(MAX_INT32) milestone?: number;
  /** Label ids; `labels=1&labels=2`, one value is a string. */
  @IsOptional()
  @Transform(({ value }) => (Array.isArray(value) ? value : [value]).map(Number))
  @IsArray() @ArrayMaxSize(50) @IsInt({ each: true }) @Min(-MAX_INT32, { each: true }) @Max(MAX_INT32, { each: true })
  labels?: number[];
  /** An unknown login is 400, as Gitea. */
  @IsOptional() @IsString() @MaxLength(255) poster?: string;
}

/** `merge_message_field` is accepted as an alias of `MergeMessageField`. */
export class MergePullBody {
  @IsIn(MERGE_DO_STYLES) Do: MergeDoStyle;
  @IsOptional() @IsString() @MaxLength(ISSUE_TITLE_MAX_LENGTH) MergeTitleField?: string;
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) MergeMessageField?: string;
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) merge_message_field?: string;
  @IsOptional() @IsBoolean() delete_branch_after_merge?: boolean;
  /** Empty: not checked (Gitea's Go SDK always sends the field); else 409 unless the head is this commit. */
  @EmptyAsAbsent() @IsOptional() @IsString() @Matches(ABBREVIATED_OBJECT_ID_PATTERN) head_commit_id?: string;
  @IsOptional() @IsString() @MaxLength(64) MergeCommitID?: string;
  @IsOptional() @IsBoolean() force_merge?: boolean;
  @IsOptional() @IsBoolean() merge_when_checks_succeed?: boolean;
}

export class UpdatePullQuery {
  @IsOptional() @IsIn(UPDATE_STYLES) style?: UpdateStyle;
}

export class CreatePullRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreatePullBody) body: CreatePullBody;
}

export class ListPullsRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListPullsQuery) query: ListPullsQuery;
}

export class PullIndexRequest extends RepoScopedRequest {
  @Type(() => Number) @IsInt() @Min(1) index: number;
}

/** A view (API GET, web page) queues a delayed check at once; the reply may still say `checking`. */
export class GetPullRequest extends PullIndexRequest {
  @IsOptional() @IsBoolean() view?: boolean;
}

export class GetPullByBranchesRequest extends RepoScopedRequest {
  @IsString() @MaxLength(255) base: string;
  @IsString() @MaxLength(255) head: string;
}

export class PullHeadRequest extends RepoScopedRequest {
  @IsString() @MinLength(1) @MaxLength(255) head: string;
}

export interface PullHeadReply {
  sha: string;
}

export class EditPullRequest extends PullIndexRequest {
  @ValidateNested() @Type(() => EditPullBody) body: EditPullBody;
}

export class MergePullRequest extends PullIndexRequest {
  @ValidateNested() @Type(() => MergePullBody) body: MergePullBody;
}

/** Runs to the end even if the caller gave up waiting. */
export class UpdatePullRequest extends PullIndexRequest {
  @IsOptional() @IsIn(UPDATE_STYLES) style?: UpdateStyle;
}

export class PullPageRequest extends PullIndexRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

/** The worker asks once per repository and remembers where it lives; the report decides whether a result is current. */
export class CheckTargetRequest {
  @IsInt() @Min(1) pullId: number;
}

export interface CheckTargetReply {
  pullId: number;
  repoId: number;
  ownerName: string;
  repoName: string;
  baseSha: string;
  headSha: string;
  status: MergeableState;
}

/** Stored only if the SHAs are still the pull request's current ones (else `{applied: false}`). */
export class ReportMergeabilityRequest {
  @IsInt() @Min(1) pullId: number;
  @IsIn(['mergeable', 'conflict', 'error']) status: Exclude<MergeableState, 'checking'>;
  @IsString({ each: true }) @ArrayMaxSize(10_000) conflicted_files: string[];
  @Matches(OBJECT_ID_PATTERN) base_sha: string;
  @Matches(OBJECT_ID_PATTERN) head_sha: string;
  @IsOptional() @IsString() @MaxLength(64) merge_base?: string;
  @IsOptional() @IsString() @MaxLength(2000) message?: string;
}

export interface ReportMergeabilityReply {
  applied: boolean;
}
