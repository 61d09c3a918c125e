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

/**
 * A pull request's mergeability (owned by repo-service, computed by merge-check-worker): `checking` until a check for
 * the current base and head commits has reported (a *delayed* check stays `checking` until someone looks).
 */
export const MERGEABLE_STATES = ['checking', 'mergeable', 'conflict', 'error'] as const;
export type MergeableState = (typeof MERGEABLE_STATES)[number];

/** Merge styles of `POST …/pulls/{index}/merge` (Gitea's `MergePullRequestOption.Do`). */
export const MERGE_DO_STYLES = [...MERGE_STYLES, 'manually-merged'] as const;
export type MergeDoStyle = (typeof MERGE_DO_STYLES)[number];

/** Styles of `POST …/pulls/{index}/update`. */
export const UPDATE_STYLES = ['merge', 'rebase'] as const;
export type UpdateStyle = (typeof UPDATE_STYLES)[number];

/** Sort orders of `GET …/pulls` (Gitea's). */
export const PULL_SORTS = [
  'oldest', 'recentupdate', 'recentclose', 'leastupdate', 'mostcomment', 'leastcomment', 'priority',
] as const;
export type PullSort = (typeof PULL_SORTS)[number];

/** Gitea's `PRBranchInfo`. */
export interface PRBranchInfoDto {
  label: string;
  ref: string;
  sha: string;
  repo_id: number;
  repo: RepositoryDto | null;
}

/**
 * Gitea's `PullRequest`, plus GitHub's `locked`/`active_lock_reason` and Cairn's `mergeable_state` and
 * `conflicted_files`. `mergeable` is true only when a check for the current commits said so.
 */
export interface PullRequestDto {
  id: number;
  url: string;
  number: number;
  user: UserDto;
  title: string;
  body: string;
  labels: LabelDto[];
  milestone: MilestoneDto | null;
  /** The first assignee (Gitea's deprecated single field). */
  assignee: UserDto | null;
  /** null when none (Gitea's nil slice). */
  assignees: UserDto[] | null;
  /** Users asked to review who have not answered since; null when none. */
  requested_reviewers: UserDto[] | null;
  /** Teams asked to review (null when none, Gitea's nil slice). */
  requested_reviewers_teams: TeamDto[] | null;
  state: IssueState;
  draft: boolean;
  is_locked: boolean;
  locked: boolean;
  active_lock_reason: string | null;
  comments: number;
  review_comments: number;
  /** Diff statistics against the merge base; only on single-PR answers (absent in lists). */
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
  /** Cairn: `checking`, `mergeable`, `conflict` or `error`. */
  mergeable_state: MergeableState;
  /** Cairn: the files in conflict (when `mergeable_state` is `conflict`). */
  conflicted_files: string[];
}

/** Gitea's `ChangedFile` (`GET …/pulls/{index}/files`). */
export interface ChangedFileDto {
  filename: string;
  previous_filename?: string;
  /** `added`, `deleted`, `modified`, `renamed`, `copied`, `changed`. */
  status: string;
  additions: number;
  deletions: number;
  changes: number;
  html_url: string;
  contents_url: string;
  raw_url: string;
}

/** `POST /repos/{owner}/{repo}/pulls` body (Gitea's `CreatePullRequestOption`). */
export class CreatePullBody extends AssigneesFields {
  /**
   * The branch with the changes: `branch` (this repository), `owner:branch` (this repository's owner, the owner of a
   * fork of it, or of the repository it was forked from).
   */
  @IsString() @MinLength(1) @MaxLength(255) head: string;
  /** The branch to merge into. */
  @IsString() @MinLength(1) @MaxLength(255) base: string;
  @IsString() @MinLength(1) @MaxLength(ISSUE_TITLE_MAX_LENGTH) title: string;
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body?: string;
  /** Label ids (write access), as `CreateIssueBody.labels`. */
  @IsOptional() @IsArray() @IsInt({ each: true }) labels?: number[];
  /** Milestone id (write access; 0: none). */
  @IsOptional() @IsInt() @Min(0) milestone?: number;
}

/** `PATCH /repos/{owner}/{repo}/pulls/{index}` body (Gitea's `EditPullRequestOption`; every field optional). */
export class EditPullBody extends AssigneesFields {
  /** Empty: unchanged, as for issues. */
  @EmptyAsAbsent() @IsOptional() @IsString() @MinLength(1) @MaxLength(ISSUE_TITLE_MAX_LENGTH) title?: string;
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) body?: string;
  @IsOptional() @IsIn(ISSUE_STATES) state?: IssueState;
  /** The pull request's labels become these ids (write access). */
  @IsOptional() @IsArray() @IsInt({ each: true }) labels?: number[];
  /** Milestone id; 0 removes it (write access). */
  @IsOptional() @IsInt() @Min(0) milestone?: number;
  /** "Allow edits from maintainers" (the poster only, as Gitea's `SetAllowEdits`). */
  @IsOptional() @IsBoolean() allow_maintainer_edit?: boolean;
}

/** `GET /repos/{owner}/{repo}/pulls` query. */
export class ListPullsQuery extends ListQuery {
  /** `open` (default), `closed` or `all`. */
  @IsOptional() @IsIn(['open', 'closed', 'all']) state?: 'open' | 'closed' | 'all';
  @IsOptional() @IsIn(PULL_SORTS) sort?: PullSort;
  /** Only pull requests into this branch. */
  @IsOptional() @IsString() @MaxLength(255) base_branch?: string;
  /** Only pull requests in this milestone (id). */
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(MAX_INT32) milestone?: number;
  /** Only pull requests carrying every one of these labels (ids; `labels=1&labels=2`, one value is a string). */
  @IsOptional()
  @Transform(({ value }) => (Array.isArray(value) ? value : [value]).map(Number))
  @IsArray() @ArrayMaxSize(50) @IsInt({ each: true }) @Min(-MAX_INT32, { each: true }) @Max(MAX_INT32, { each: true })
  labels?: number[];
  /** Only pull requests opened by this user (login; an unknown one is 400, as Gitea). */
  @IsOptional() @IsString() @MaxLength(255) poster?: string;
}

/**
 * `POST …/pulls/{index}/merge` body (Gitea's `MergePullRequestOption`). `merge_message_field` is accepted as an alias
 * of `MergeMessageField`.
 */
export class MergePullBody {
  @IsIn(MERGE_DO_STYLES) Do: MergeDoStyle;
  @IsOptional() @IsString() @MaxLength(ISSUE_TITLE_MAX_LENGTH) MergeTitleField?: string;
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) MergeMessageField?: string;
  @IsOptional() @IsString() @MaxLength(ISSUE_BODY_MAX_LENGTH) merge_message_field?: string;
  @IsOptional() @IsBoolean() delete_branch_after_merge?: boolean;
  /** Refuse (409) unless the head is still this commit. */
  /** Empty: not checked (Gitea checks it only when given; its Go SDK always sends the field). */
  @EmptyAsAbsent() @IsOptional() @IsString() @Matches(ABBREVIATED_OBJECT_ID_PATTERN) head_commit_id?: string;
  @IsOptional() @IsString() @MaxLength(64) MergeCommitID?: string;
  @IsOptional() @IsBoolean() force_merge?: boolean;
  @IsOptional() @IsBoolean() merge_when_checks_succeed?: boolean;
}

/** `POST …/pulls/{index}/update` query. */
export class UpdatePullQuery {
  /** `merge` (default) or `rebase`. */
  @IsOptional() @IsIn(UPDATE_STYLES) style?: UpdateStyle;
}

// ---- messages (repo-service) ------------------------------------------------------------------------------------

/** `repo.pull-request.create`. */
export class CreatePullRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreatePullBody) body: CreatePullBody;
}

/** `repo.pull-request.list`: replies `Paginated<PullRequestDto>` (listing never triggers a check). */
export class ListPullsRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListPullsQuery) query: ListPullsQuery;
}

/** Every message about one pull request, by its number. */
export class PullIndexRequest extends RepoScopedRequest {
  @Type(() => Number) @IsInt() @Min(1) index: number;
}

/**
 * `repo.pull-request.get`: replies {@link PullRequestDto}. A view (`view: true`: the API GET and the web page) queues
 * the check of a pull request that is still `checking` (a delayed check) at once; the reply may still say `checking`.
 */
export class GetPullRequest extends PullIndexRequest {
  @IsOptional() @IsBoolean() view?: boolean;
}

/** `repo.pull-request.get-by-branches` (`GET …/pulls/{base}/{head}`): a view, like {@link GetPullRequest}. */
export class GetPullByBranchesRequest extends RepoScopedRequest {
  @IsString() @MaxLength(255) base: string;
  @IsString() @MaxLength(255) head: string;
}

/** `repo.pull-request.head-commit`: a head as `CreatePullBody.head` takes it. */
export class PullHeadRequest extends RepoScopedRequest {
  @IsString() @MinLength(1) @MaxLength(255) head: string;
}

/** Reply of `repo.pull-request.head-commit`: the head's commit, now present in the base repository. */
export interface PullHeadReply {
  sha: string;
}

/** `repo.pull-request.edit`. */
export class EditPullRequest extends PullIndexRequest {
  @ValidateNested() @Type(() => EditPullBody) body: EditPullBody;
}

/** `repo.pull-request.merge`: replies `null` (HTTP 200 with an empty body). */
export class MergePullRequest extends PullIndexRequest {
  @ValidateNested() @Type(() => MergePullBody) body: MergePullBody;
}

/** `repo.pull-request.update`: replies `null`. Runs to the end even if the caller gave up waiting. */
export class UpdatePullRequest extends PullIndexRequest {
  @IsOptional() @IsIn(UPDATE_STYLES) style?: UpdateStyle;
}

/** `repo.pull-request.commits`, `repo.pull-request.files`: replies `Paginated<…>`. */
export class PullPageRequest extends PullIndexRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

// ---- mergeability (merge-check-worker ⇄ repo-service) -------------------------------------------------------------

/**
 * `repo.pull-request.check-target`: what a check needs to run. The worker asks once per repository and remembers where
 * it lives; the report is what decides whether a result is still current.
 */
export class CheckTargetRequest {
  @IsInt() @Min(1) pullId: number;
}

/** Reply of `repo.pull-request.check-target`; `null` when the pull request is gone, closed or merged. */
export interface CheckTargetReply {
  pullId: number;
  repoId: number;
  ownerName: string;
  repoName: string;
  baseSha: string;
  headSha: string;
  status: MergeableState;
}

/**
 * `repo.pull-request.report-mergeability`: a check's result. repo-service stores it only if the SHAs are still the
 * pull request's current ones (else `{applied: false}`), and publishes `mergeability-changed`.
 */
export class ReportMergeabilityRequest {
  @IsInt() @Min(1) pullId: number;
  @IsIn(['mergeable', 'conflict', 'error']) status: Exclude<MergeableState, 'checking'>;
  @IsString({ each: true }) @ArrayMaxSize(10_000) conflicted_files: string[];
  @Matches(OBJECT_ID_PATTERN) base_sha: string;
  @Matches(OBJECT_ID_PATTERN) head_sha: string;
  @IsOptional() @IsString() @MaxLength(64) merge_base?: string;
  /** Why the check failed (`error` only). */
  @IsOptional() @IsString() @MaxLength(2000) message?: string;
}

/** Reply of `repo.pull-request.report-mergeability`. */
export interface ReportMergeabilityReply {
  applied: boolean;
}
