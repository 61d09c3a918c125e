import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import type { PayloadCommitVerificationDto } from './commits.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';

export interface PayloadUserDto {
  name: string;
  email: string;
  username: string;
}

export interface PayloadCommitDto {
  id: string;
  message: string;
  url: string;
  author: PayloadUserDto;
  committer: PayloadUserDto;
  verification: PayloadCommitVerificationDto | null;
  timestamp: string;
  added: string[] | null;
  removed: string[] | null;
  modified: string[] | null;
}

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

/** Newest commit first, then by name, as Gitea. */
export class ListBranchesRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

export class GetBranchRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) branch: string;
}

export const REF_NAMES_MAX = 500;

export class ListRefNamesRequest extends RepoScopedRequest {
  @IsInt() @Min(1) @Max(REF_NAMES_MAX) limit: number;
}

export interface RefNamesReply {
  branches: string[];
  tags: string[];
  truncated: boolean;
}

export class CreateBranchBody {
  @IsString() @MaxLength(100) new_branch_name: string;
  @IsOptional() @IsString() @MaxLength(100) old_branch_name?: string;
  @IsOptional() @IsString() @MaxLength(255) old_ref_name?: string;
}

export class CreateBranchRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateBranchBody) body: CreateBranchBody;
}

export class RenameBranchBody {
  @IsString() @MaxLength(100) name: string;
}

export class RenameBranchRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) branch: string;
  @ValidateNested() @Type(() => RenameBranchBody) body: RenameBranchBody;
}

export class DeleteBranchRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) branch: string;
}
