import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested,
} from 'class-validator';
import { ActorDto } from '../common/actor.js';
import { ListQuery, MAX_INT32 } from '../common/pagination.js';
import type { UserDto } from '../identity/user.dto.js';
import { REPO_TRUST_MODELS, RepoScopedRequest, type RepoTrustModel } from './repo-access.dto.js';
import { queryBool } from '../common/query-bool.js';

/** Gitea's `Permission`: what the caller may do with a repository. */
export interface PermissionDto {
  admin: boolean;
  push: boolean;
  pull: boolean;
}

/** Gitea's `InternalTracker` (rendered while the issues unit is enabled). */
export interface InternalTrackerDto {
  enable_time_tracker: boolean;
  allow_only_contributors_to_track_time: boolean;
  enable_issue_dependencies: boolean;
}

/** The few fields of a repository a web page header shows (see `RepoSubjects.repositorySummary`). */
export interface RepositorySummaryDto {
  description: string;
  website: string;
  archived: boolean;
  html_url: string;
  clone_url: string;
  ssh_url: string;
  /** Open issues and pull requests, for the header's tab counts. */
  open_issues_count: number;
  open_pr_counter: number;
}

/** Gitea's `Repository`. */
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

/** Merge styles a repository may default to (Gitea's `MergeStyle`). */
export const MERGE_STYLES = ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only'] as const;
export type MergeStyle = (typeof MERGE_STYLES)[number];

/** `POST /user/repos`, `/orgs/{org}/repos`, `/admin/users/{username}/repos` body (Gitea's `CreateRepoOption`). */
export class CreateRepoBody {
  /** Repository name (alphanumerics, `-`, `_`, `.`; checked again by repo-service). */
  @IsString() @MaxLength(100) name: string;
  @IsOptional() @IsString() @MaxLength(2048) description?: string;
  @IsOptional() @IsBoolean() private?: boolean;
  /** Make an initial commit with a README. */
  @IsOptional() @IsBoolean() auto_init?: boolean;
  /** The branch to create (and the default branch); `[repository] DEFAULT_BRANCH` when absent. */
  @IsOptional() @IsString() @MaxLength(100) default_branch?: string;
  @IsOptional() @IsBoolean() template?: boolean;
  /** Accepted for compatibility; only `sha1` is supported. Empty: sha1 (Gitea's Go SDK always sends the field). */
  @IsOptional() @IsIn(['', 'sha1', 'sha256']) object_format_name?: '' | 'sha1' | 'sha256';
  /**
   * `.gitignore` templates for the `auto_init` commit, comma-separated (`Node,macOS`; `GET /gitignore/templates`),
   * concatenated in that order. An unknown name: 422.
   */
  @IsOptional() @IsString() @MaxLength(255) gitignores?: string;
  /** Accepted for compatibility and ignored. */
  @IsOptional() @IsString() @MaxLength(255) issue_labels?: string;
  /** The licence of the `auto_init` commit's `LICENSE` (`GET /licenses`: `MIT`, `Apache-2.0`…; year and owner filled in). An unknown key: 422. */
  @IsOptional() @IsString() @MaxLength(255) license?: string;
  /** Accepted for compatibility; the README is always the default one. */
  @IsOptional() @IsString() @MaxLength(255) readme?: string;
  /** How signed commits are trusted (`default` or empty: `[repository.signing] DEFAULT_TRUST_MODEL`). */
  @IsOptional() @IsIn(['', ...REPO_TRUST_MODELS]) trust_model?: RepoTrustModel | '';
}

/** `PATCH /repos/{owner}/{repo}` body (Gitea's `EditRepoOption`; every field optional). */
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
  /** Cairn addition (Gitea changes it only in its web settings): how signed commits are trusted. */
  @IsOptional() @IsIn(REPO_TRUST_MODELS) trust_model?: RepoTrustModel;
}

/** Sort keys of `GET /repos/search`. */
export const REPO_SEARCH_SORTS = ['alpha', 'created', 'updated', 'size', 'id'] as const;

/** `GET /repos/search` query (the part of Gitea's parameters Cairn supports). */
export class SearchReposQuery extends ListQuery {
  /** Keyword, matched against the name (and the description with `includeDesc`). */
  @IsOptional() @IsString() @MaxLength(255) q?: string;
  /** Only repositories this user owns or collaborates on. */
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT32) uid?: number;
  /** Include private repositories the caller can see (default true for signed-in callers). */
  @IsOptional() @Transform(queryBool) @IsBoolean() private?: boolean;
  /** With `uid`: only repositories that user owns. */
  @IsOptional() @Transform(queryBool) @IsBoolean() exclusive?: boolean;
  /** Match the keyword against descriptions too. */
  @IsOptional() @Transform(queryBool) @IsBoolean() includeDesc?: boolean;
  /** Only template (true) or non-template (false) repositories. */
  @IsOptional() @Transform(queryBool) @IsBoolean() template?: boolean;
  /** `fork`, `source`, `mirror` or `collaborative`. */
  @IsOptional() @IsString() @MaxLength(32) mode?: string;
  /** `alpha` (default), `created`, `updated`, `size` or `id`. */
  @IsOptional() @IsString() @MaxLength(32) sort?: string;
  /** `asc` (default) or `desc`. */
  @IsOptional() @IsString() @MaxLength(8) order?: string;
  /** Only archived (true) or only unarchived (false) repositories; all when absent. */
  @IsOptional() @Transform(queryBool) @IsBoolean() archived?: boolean;
  /** Only private (true) or only public (false) repositories; all visible ones when absent. */
  @IsOptional() @Transform(queryBool) @IsBoolean() is_private?: boolean;
  /** `q` names topics (comma-separated, each matched exactly) instead of matching names. */
  @IsOptional() @Transform(queryBool) @IsBoolean() topic?: boolean;
  /** Only repositories given to this team. */
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT32) team_id?: number;
  /** Only repositories this user (by id) has starred. */
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT32) starredBy?: number;
  /** Repositories of this owner come first. */
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT32) priority_owner_id?: number;
}

/** Gitea's `SearchResults`: the body of `GET /repos/search`. */
export interface RepoSearchResultsDto {
  ok: boolean;
  data: RepositoryDto[];
}

/** Where `repo.repository.create` puts the new repository. */
export const REPO_CREATE_TARGETS = ['self', 'org', 'user'] as const;
export type RepoCreateTarget = (typeof REPO_CREATE_TARGETS)[number];

/**
 * `repo.repository.create`: `self` = the actor's own (`POST /user/repos`); `org` = the organization `owner`
 * (`POST /orgs/{org}/repos`: org owners and teams that may create repositories); `user` = the user `owner`, by a site
 * administrator (`POST /admin/users/{username}/repos`).
 */
export class CreateRepositoryRequest {
  @ValidateNested() @Type(() => ActorDto) actor: ActorDto;
  @IsIn(REPO_CREATE_TARGETS) target: RepoCreateTarget;
  /** The organization or user name; required unless `target` is `self`. */
  @IsOptional() @IsString() @MaxLength(255) owner?: string;
  @ValidateNested() @Type(() => CreateRepoBody) body: CreateRepoBody;
}

/** `repo.repository.edit`. */
export class EditRepositoryRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => EditRepoBody) body: EditRepoBody;
}

/** Gitea's `TransferRepoOption`: the new owner (a user or an organization, by name) and teams to give it there. */
export class TransferRepoBody {
  @IsString() @MinLength(1) @MaxLength(255) new_owner: string;
  /** Teams of the new organization that get the repository (only when the new owner is an organization). */
  @IsOptional() @IsArray() @ArrayMaxSize(100) @IsInt({ each: true }) @Min(1, { each: true }) team_ids?: number[];
}

/** `repo.repository.transfer`. */
export class TransferRepositoryRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => TransferRepoBody) body: TransferRepoBody;
}

/**
 * `repo.repository.list`: the repositories of `owner` that the actor can see (`GET /users/{u}/repos`,
 * `GET /orgs/{org}/repos` with `ownerKind: 'organization'`), or — without `owner` — the repositories the actor owns
 * or can reach through collaboration, teams and organization ownership (`GET /user/repos`).
 */
export class ListRepositoriesRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsOptional() @IsString() @MaxLength(255) owner?: string;
  /** When set, `owner` must be of this kind (else NOT_FOUND). */
  @IsOptional() @IsIn(['user', 'organization']) ownerKind?: 'user' | 'organization';
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

/** `repo.repository.search`: replies `Paginated<RepositoryDto>` (the gateway wraps it as `{ok, data}`). */
export class SearchRepositoriesRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @ValidateNested() @Type(() => SearchReposQuery) query: SearchReposQuery;
}

/**
 * `repo.repository.owned-count`: how many repositories an owner (user or organization, by identity id) has, for
 * refusing to delete an owner that still has some (Gitea's `ErrUserOwnRepos`). One indexed count: bounded.
 */
export class OwnedRepositoriesRequest {
  @IsInt() @Min(1) ownerId: number;
}
export interface OwnedRepositoriesReply {
  count: number;
}

/** `repo.team-repo.list`: the repositories a team was given (all of its organization's when it includes all). */
export class TeamRepositoriesRequest {
  @ValidateNested() @Type(() => ActorDto) actor: ActorDto;
  @IsInt() @Min(1) teamId: number;
  @IsOptional() @ValidateNested() @Type(() => ListQuery) query?: ListQuery;
}

/** `repo.team-repo.get|add|remove`: one repository of the team's organization, named as in the URL. */
export class TeamRepositoryRequest {
  @ValidateNested() @Type(() => ActorDto) actor: ActorDto;
  @IsInt() @Min(1) teamId: number;
  @IsString() @MaxLength(255) org: string;
  @IsString() @MaxLength(255) repo: string;
}

/** The most repositories one {@link VisibleRepositoriesRequest} names (a page of packages: at most 50). */
export const VISIBLE_REPOSITORIES_MAX = 50;

/**
 * `repo.repository.visible`: which of these repositories (by id) the actor may see, as Gitea `Repository` JSON with
 * the actor's permissions (packages render their linked repository only for callers who may see it). Ids of missing
 * or invisible repositories are left out.
 */
export class VisibleRepositoriesRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsArray() @ArrayMaxSize(VISIBLE_REPOSITORIES_MAX) @IsInt({ each: true }) @Min(1, { each: true }) ids: number[];
}

/** `repo.repository.get-by-id`: a repository by id, with the caller's permissions; unseen ones are NOT_FOUND. */
export class GetRepositoryByIdRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsInt() @Min(1) id: number;
}

/** `POST /repos/{owner}/{repo}/forks` body (Gitea's `CreateForkOption`). */
export class CreateForkBody {
  /** The organization to fork into (default: the caller). */
  @IsOptional() @IsString() @MaxLength(255) organization?: string;
  /** The fork's name (default: the repository's). */
  @IsOptional() @IsString() @MaxLength(100) name?: string;
}

/** `repo.repository.fork`: fork the scoped repository (read access needed). Replies the fork's `RepositoryDto`. */
export class ForkRepositoryRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateForkBody) body: CreateForkBody;
}

/** `repo.repository.forks`: a page of the scoped repository's forks that the actor may see. */
export class ListForksRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}
