import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested,
} from 'class-validator';
import { ActorDto } from '../common/actor.js';
import { ListQuery, MAX_INT32 } from '../common/pagination.js';
import type { UserDto } from '../identity/user.dto.js';
import { REPO_TRUST_MODELS, RepoScopedRequest, type RepoTrustModel } from './repo-access.dto.js';
import { queryBool } from '../common/query-bool.js';

export interface PermissionDto {
  admin: boolean;
  push: boolean;
  pull: boolean;
}

export interface InternalTrackerDto {
  enable_time_tracker: boolean;
  allow_only_contributors_to_track_time: boolean;
  enable_issue_dependencies: boolean;
}

export interface RepositorySummaryDto {
  description: string;
  website: string;
  archived: boolean;
  html_url: string;
  clone_url: string;
  ssh_url: string;
  open_issues_count: number;
  open_pr_counter: number;
}

export interface RepositoryDto {
  id: number;
  owner: UserDto;
  name: string;
  full_name: string;
  description: string;
  empty: boolean;
  private: boolean;
  fork: boolean;
  template: boolean;
  parent: RepositoryDto | null;
  mirror: boolean;
  size: number;
  language: string;
  languages_url: string;
  html_url: string;
  url: string;
  link: string;
  ssh_url: string;
  clone_url: string;
  original_url: string;
  website: string;
  stars_count: number;
  forks_count: number;
  watchers_count: number;
  open_issues_count: number;
  open_pr_counter: number;
  release_counter: number;
  default_branch: string;
  archived: boolean;
  created_at: string;
  updated_at: string;
  archived_at: string;
  permissions: PermissionDto;
  has_issues: boolean;
  internal_tracker?: InternalTrackerDto;
  has_wiki: boolean;
  has_pull_requests: boolean;
  has_projects: boolean;
  has_releases: boolean;
  has_packages: boolean;
  has_actions: boolean;
  ignore_whitespace_conflicts: boolean;
  allow_merge_commits: boolean;
  allow_rebase: boolean;
  allow_rebase_explicit: boolean;
  allow_squash_merge: boolean;
  allow_fast_forward_only_merge: boolean;
  allow_rebase_update: boolean;
  allow_manual_merge: boolean;
  autodetect_manual_merge: boolean;
  default_delete_branch_after_merge: boolean;
  default_merge_style: string;
  default_allow_maintainer_edit: boolean;
  avatar_url: string;
  internal: boolean;
  mirror_interval: string;
  object_format_name: 'sha1' | 'sha256';
  topics: string[];
  licenses: string[];
}

export const MERGE_STYLES = ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only'] as const;
export type MergeStyle = (typeof MERGE_STYLES)[number];

export class CreateRepoBody {
  @IsString() @MaxLength(100) name: string;
  @IsOptional() @IsString() @MaxLength(2048) description?: string;
  @IsOptional() @IsBoolean() private?: boolean;
  @IsOptional() @IsBoolean() auto_init?: boolean;
  /** Also the default branch; `[repository] DEFAULT_BRANCH` when absent. */
  @IsOptional() @IsString() @MaxLength(100) default_branch?: string;
  @IsOptional() @IsBoolean() template?: boolean;
  /** Only `sha1` is supported. Empty: sha1 (Gitea's Go SDK always sends the field). */
  @IsOptional() @IsIn(['', 'sha1', 'sha256']) object_format_name?: '' | 'sha1' | 'sha256';
  /** Comma-separated, concatenated in that order; an unknown name: 422. */
  @IsOptional() @IsString() @MaxLength(255) gitignores?: string;
  /** Accepted for compatibility and ignored. */
  @IsOptional() @IsString() @MaxLength(255) issue_labels?: string;
  /** The `LICENSE` of the `auto_init` commit (year and owner filled in); an unknown key: 422. */
  @IsOptional() @IsString() @MaxLength(255) license?: string;
  /** Accepted for compatibility; the README is always the default one. */
  @IsOptional() @IsString() @MaxLength(255) readme?: string;
  /** `default` or empty: `[repository.signing] DEFAULT_TRUST_MODEL`. */
  @IsOptional() @IsIn(['', ...REPO_TRUST_MODELS]) trust_model?: RepoTrustModel | '';
}

export class EditRepoBody {
  @IsOptional() @IsString() @MaxLength(100) name?: string;
  @IsOptional() @IsString() @MaxLength(2048) description?: string;
  @IsOptional() @IsString() @MaxLength(2048) website?: string;
  @IsOptional() @IsBoolean() private?: boolean;
  @IsOptional() @IsBoolean() template?: boolean;
  @IsOptional() @IsString() @MaxLength(100) default_branch?: string;
  @IsOptional() @IsBoolean() archived?: boolean;
  @IsOptional() @IsBoolean() has_issues?: boolean;
  /** Accepted; Cairn has no wiki, so it stays false. */
  @IsOptional() @IsBoolean() has_wiki?: boolean;
  @IsOptional() @IsBoolean() has_pull_requests?: boolean;
  /** Accepted; Cairn has no projects, so it stays false. */
  @IsOptional() @IsBoolean() has_projects?: boolean;
  @IsOptional() @IsBoolean() has_releases?: boolean;
  @IsOptional() @IsBoolean() has_packages?: boolean;
  @IsOptional() @IsBoolean() has_actions?: boolean;
  @IsOptional() @IsBoolean() ignore_whitespace_conflicts?: boolean;
  @IsOptional() @IsBoolean() allow_merge_commits?: boolean;
  @IsOptional() @IsBoolean() allow_rebase?: boolean;
  @IsOptional() @IsBoolean() allow_rebase_explicit?: boolean;
  @IsOptional() @IsBoolean() allow_squash_merge?: boolean;
  @IsOptional() @IsBoolean() allow_fast_forward_only_merge?: boolean;
  @IsOptional() @IsBoolean() allow_rebase_update?: boolean;
  @IsOptional() @IsBoolean() allow_manual_merge?: boolean;
  @IsOptional() @IsBoolean() autodetect_manual_merge?: boolean;
  @IsOptional() @IsBoolean() default_delete_branch_after_merge?: boolean;
  @IsOptional() @IsIn(MERGE_STYLES) default_merge_style?: MergeStyle;
  @IsOptional() @IsBoolean() default_allow_maintainer_edit?: boolean;
  /** Cairn addition (Gitea changes it only in its web settings). */
  @IsOptional() @IsIn(REPO_TRUST_MODELS) trust_model?: RepoTrustModel;
}

export const REPO_SEARCH_SORTS = ['alpha', 'created', 'updated', 'size', 'id'] as const;

export class SearchReposQuery extends ListQuery {
  @IsOptional() @IsString() @MaxLength(255) q?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT32) uid?: number;
  @IsOptional() @Transform(queryBool) @IsBoolean() private?: boolean;
  @IsOptional() @Transform(queryBool) @IsBoolean() exclusive?: boolean;
  @IsOptional() @Transform(queryBool) @IsBoolean() includeDesc?: boolean;
  @IsOptional() @Transform(queryBool) @IsBoolean() template?: boolean;
  @IsOptional() @IsString() @MaxLength(32) mode?: string;
  @IsOptional() @IsString() @MaxLength(32) sort?: string;
  @IsOptional() @IsString() @MaxLength(8) order?: string;
  @IsOptional() @Transform(queryBool) @IsBoolean() archived?: boolean;
  @IsOptional() @Transform(queryBool) @IsBoolean() is_private?: boolean;
  /** `q` names topics (comma-separated, each matched exactly) instead of matching names. */
  @IsOptional() @Transform(queryBool) @IsBoolean() topic?: boolean;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT32) team_id?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT32) starredBy?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT32) priority_owner_id?: number;
}

export interface RepoSearchResultsDto {
  ok: boolean;
  data: RepositoryDto[];
}

export const REPO_CREATE_TARGETS = ['self', 'org', 'user'] as const;
export type RepoCreateTarget = (typeof REPO_CREATE_TARGETS)[number];

/** `self`: `POST /user/repos`; `org`: `POST /orgs/{org}/repos` (org owners, creating teams); `user`: by a site admin. */
export class CreateRepositoryRequest {
  @ValidateNested() @Type(() => ActorDto) actor: ActorDto;
  @IsIn(REPO_CREATE_TARGETS) target: RepoCreateTarget;
  @IsOptional() @IsString() @MaxLength(255) owner?: string;
  @ValidateNested() @Type(() => CreateRepoBody) body: CreateRepoBody;
}

export class EditRepositoryRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => EditRepoBody) body: EditRepoBody;
}

export class TransferRepoBody {
  @IsString() @MinLength(1) @MaxLength(255) new_owner: string;
  @IsOptional() @IsArray() @ArrayMaxSize(100) @IsInt({ each: true }) @Min(1, { each: true }) team_ids?: number[];
}

export class TransferRepositoryRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => TransferRepoBody) body: TransferRepoBody;
}

/** Without `owner`: what the actor owns or reaches through collaboration, teams and organizations. */
export class ListRepositoriesRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsOptional() @IsString() @MaxLength(255) owner?: string;
  @IsOptional() @IsIn(['user', 'organization']) ownerKind?: 'user' | 'organization';
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

export class SearchRepositoriesRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @ValidateNested() @Type(() => SearchReposQuery) query: SearchReposQuery;
}

/** Deleting an owner is refused while it has any (Gitea's `ErrUserOwnRepos`); one indexed count. */
export class OwnedRepositoriesRequest {
  @IsInt() @Min(1) ownerId: number;
}
export interface OwnedRepositoriesReply {
  count: number;
}

export class TeamRepositoriesRequest {
  @ValidateNested() @Type(() => ActorDto) actor: ActorDto;
  @IsInt() @Min(1) teamId: number;
  @IsOptional() @ValidateNested() @Type(() => ListQuery) query?: ListQuery;
}

export class TeamRepositoryRequest {
  @ValidateNested() @Type(() => ActorDto) actor: ActorDto;
  @IsInt() @Min(1) teamId: number;
  @IsString() @MaxLength(255) org: string;
  @IsString() @MaxLength(255) repo: string;
}

export const VISIBLE_REPOSITORIES_MAX = 50;

/** Packages render their linked repository only for callers who may see it; missing or invisible ids are left out. */
export class VisibleRepositoriesRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsArray() @ArrayMaxSize(VISIBLE_REPOSITORIES_MAX) @IsInt({ each: true }) @Min(1, { each: true }) ids: number[];
}

export class GetRepositoryByIdRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsInt() @Min(1) id: number;
}

export class CreateForkBody {
  @IsOptional() @IsString() @MaxLength(255) organization?: string;
  @IsOptional() @IsString() @MaxLength(100) name?: string;
}

export class ForkRepositoryRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateForkBody) body: CreateForkBody;
}

export class ListForksRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}
