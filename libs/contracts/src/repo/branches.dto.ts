import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import type { PayloadCommitVerificationDto } from './commits.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';

/** Gitea's `PayloadUser`: a commit's author or committer, with the login of the user owning that e-mail. */
export interface PayloadUserDto {
  name: string;
  email: string;
  /** The matching user's login, or `''`. */
  username: string;
}

/** Gitea's `PayloadCommit` as branches carry it. */
export interface PayloadCommitDto {
  id: string;
  message: string;
  url: string;
  author: PayloadUserDto;
  committer: PayloadUserDto;
  verification: PayloadCommitVerificationDto | null;
  /** Author date (RFC 3339). */
  timestamp: string;
  added: string[] | null;
  removed: string[] | null;
  modified: string[] | null;
}

/** Gitea's `Branch`. */
export interface BranchDto {
  name: string;
  commit: PayloadCommitDto;
  protected: boolean;
  required_approvals: number;
  enable_status_check: boolean;
  status_check_contexts: string[];
  user_can_push: boolean;
  user_can_merge: boolean;
  effective_branch_protection_name: string;
}

/** `repo.branch.list`: one page of branches (newest commit first, then by name, as Gitea). */
export class ListBranchesRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

/** `repo.branch.get`: one branch by name (names may contain `/`). Replies {@link BranchDto}; unknown → NOT_FOUND. */
export class GetBranchRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) branch: string;
}

/** The most names of each kind a `repo.ref.names` reply may carry. */
export const REF_NAMES_MAX = 500;

/** `repo.ref.names`: up to `limit` branch names and `limit` tag names. */
export class ListRefNamesRequest extends RepoScopedRequest {
  @IsInt() @Min(1) @Max(REF_NAMES_MAX) limit: number;
}

/** `repo.ref.names` reply: names sorted by name; `truncated` when either kind had more than the limit. */
export interface RefNamesReply {
  branches: string[];
  tags: string[];
  truncated: boolean;
}

/** `POST /repos/{owner}/{repo}/branches` body (Gitea's `CreateBranchRepoOption`). */
export class CreateBranchBody {
  @IsString() @MaxLength(100) new_branch_name: string;
  /** Deprecated in Gitea: the branch to start from (default: the default branch). */
  @IsOptional() @IsString() @MaxLength(100) old_branch_name?: string;
  /** The branch, tag or commit to start from; wins over `old_branch_name`. */
  @IsOptional() @IsString() @MaxLength(255) old_ref_name?: string;
}

/** `repo.branch.create`. */
export class CreateBranchRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateBranchBody) body: CreateBranchBody;
}

/** `PATCH /repos/{owner}/{repo}/branches/{branch}` body (Gitea's `RenameBranchRepoOption`). */
export class RenameBranchBody {
  @IsString() @MaxLength(100) name: string;
}

/** `repo.branch.rename`: the branch (by its current name) and its new name. */
export class RenameBranchRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) branch: string;
  @ValidateNested() @Type(() => RenameBranchBody) body: RenameBranchBody;
}

/** `repo.branch.delete`: one branch by name. */
export class DeleteBranchRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) branch: string;
}
