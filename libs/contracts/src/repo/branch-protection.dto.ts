import { Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested,
} from 'class-validator';
import { RepoScopedRequest } from './repo-access.dto.js';

export interface BranchProtectionDto {
  /** Deprecated alias of `rule_name` (Gitea still fills it). */
  branch_name: string;
  rule_name: string;
  priority: number;
  enable_push: boolean;
  enable_push_whitelist: boolean;
  push_whitelist_usernames: string[];
  push_whitelist_teams: string[];
  push_whitelist_deploy_keys: boolean;
  enable_force_push: boolean;
  enable_force_push_allowlist: boolean;
  force_push_allowlist_usernames: string[];
  force_push_allowlist_teams: string[];
  force_push_allowlist_deploy_keys: boolean;
  enable_merge_whitelist: boolean;
  merge_whitelist_usernames: string[];
  merge_whitelist_teams: string[];
  enable_status_check: boolean;
  status_check_contexts: string[];
  required_approvals: number;
  enable_approvals_whitelist: boolean;
  approvals_whitelist_username: string[];
  approvals_whitelist_teams: string[];
  block_on_rejected_reviews: boolean;
  block_on_official_review_requests: boolean;
  block_on_outdated_branch: boolean;
  dismiss_stale_approvals: boolean;
  ignore_stale_approvals: boolean;
  require_signed_commits: boolean;
  protected_file_patterns: string;
  unprotected_file_patterns: string;
  block_admin_merge_override: boolean;
  created_at: string;
  updated_at: string;
}

const MAX_LIST = 100;

export class EditBranchProtectionBody {
  @IsOptional() @IsInt() @Min(0) @Max(1_000_000) priority?: number;
  @IsOptional() @IsBoolean() enable_push?: boolean;
  @IsOptional() @IsBoolean() enable_push_whitelist?: boolean;
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_LIST) @IsString({ each: true }) @MaxLength(255, { each: true })
  push_whitelist_usernames?: string[];
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_LIST) @IsString({ each: true }) @MaxLength(255, { each: true })
  push_whitelist_teams?: string[];
  @IsOptional() @IsBoolean() push_whitelist_deploy_keys?: boolean;
  @IsOptional() @IsBoolean() enable_force_push?: boolean;
  @IsOptional() @IsBoolean() enable_force_push_allowlist?: boolean;
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_LIST) @IsString({ each: true }) @MaxLength(255, { each: true })
  force_push_allowlist_usernames?: string[];
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_LIST) @IsString({ each: true }) @MaxLength(255, { each: true })
  force_push_allowlist_teams?: string[];
  @IsOptional() @IsBoolean() force_push_allowlist_deploy_keys?: boolean;
  @IsOptional() @IsBoolean() enable_merge_whitelist?: boolean;
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_LIST) @IsString({ each: true }) @MaxLength(255, { each: true })
  merge_whitelist_usernames?: string[];
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_LIST) @IsString({ each: true }) @MaxLength(255, { each: true })
  merge_whitelist_teams?: string[];
  @IsOptional() @IsBoolean() enable_status_check?: boolean;
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_LIST) @IsString({ each: true }) @MaxLength(255, { each: true })
  status_check_contexts?: string[];
  @IsOptional() @IsInt() @Max(1000) required_approvals?: number;
  @IsOptional() @IsBoolean() enable_approvals_whitelist?: boolean;
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_LIST) @IsString({ each: true }) @MaxLength(255, { each: true })
  approvals_whitelist_username?: string[];
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_LIST) @IsString({ each: true }) @MaxLength(255, { each: true })
  approvals_whitelist_teams?: string[];
  @IsOptional() @IsBoolean() block_on_rejected_reviews?: boolean;
  @IsOptional() @IsBoolean() block_on_official_review_requests?: boolean;
  @IsOptional() @IsBoolean() block_on_outdated_branch?: boolean;
  @IsOptional() @IsBoolean() dismiss_stale_approvals?: boolean;
  @IsOptional() @IsBoolean() ignore_stale_approvals?: boolean;
  @IsOptional() @IsBoolean() require_signed_commits?: boolean;
  @IsOptional() @IsString() @MaxLength(4096) protected_file_patterns?: string;
  @IsOptional() @IsString() @MaxLength(4096) unprotected_file_patterns?: string;
  @IsOptional() @IsBoolean() block_admin_merge_override?: boolean;
}

export class CreateBranchProtectionBody extends EditBranchProtectionBody {
  @IsOptional() @IsString() @MaxLength(255) rule_name?: string;
  @IsOptional() @IsString() @MaxLength(255) branch_name?: string;
}

export class BranchProtectionRequest extends RepoScopedRequest {
  @IsString() @MaxLength(255) name: string;
}

export class CreateBranchProtectionRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateBranchProtectionBody) body: CreateBranchProtectionBody;
}

export class EditBranchProtectionRequest extends BranchProtectionRequest {
  @ValidateNested() @Type(() => EditBranchProtectionBody) body: EditBranchProtectionBody;
}
