import { Transform, Type } from 'class-transformer';
import {
  IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsString, MaxLength, MinLength, ValidateNested, IsDateString, Min, Max,
} from 'class-validator';
import { MAX_INT32 } from '../common/pagination.js';
import { ActorDto } from '../common/actor.js';
import { ListQuery } from '../common/pagination.js';
import { queryBool } from '../common/query-bool.js';

export const VISIBILITIES = ['public', 'limited', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export interface UserDto {
  id: number;
  login: string;
  login_name: string;
  source_id: number;
  full_name: string;
  email: string;
  avatar_url: string;
  html_url: string;
  language: string;
  is_admin: boolean;
  last_login: string;
  created: string;
  restricted: boolean;
  active: boolean;
  prohibit_login: boolean;
  location: string;
  website: string;
  description: string;
  visibility: Visibility;
  followers_count: number;
  following_count: number;
  starred_repos_count: number;
  username: string;
}

export class CreateUserBody {
  @IsString() @MinLength(1) @MaxLength(40) username: string;
  @IsEmail() @MaxLength(255) email: string;
  /** Required: Cairn has no external auth sources. */
  @IsString() @MinLength(1) @MaxLength(255) password: string;
  @IsOptional() @IsString() @MaxLength(255) full_name?: string;
  @IsOptional() @IsString() @MaxLength(255) login_name?: string;
  @IsOptional() @IsInt() @Min(0) @Max(MAX_INT32) source_id?: number;
  @IsOptional() @IsBoolean() must_change_password?: boolean;
  @IsOptional() @IsBoolean() send_notify?: boolean;
  @IsOptional() @IsBoolean() restricted?: boolean;
  @IsOptional() @IsIn(VISIBILITIES) visibility?: Visibility;
  @IsOptional() @IsDateString() created_at?: string;
  @IsOptional() @IsBoolean() admin?: boolean;
}

export class EditUserBody {
  @IsOptional() @IsInt() @Min(0) @Max(MAX_INT32) source_id?: number;
  @IsOptional() @IsString() @MaxLength(255) login_name?: string;
  @IsOptional() @IsEmail() @MaxLength(255) email?: string;
  @IsOptional() @IsString() @MaxLength(255) full_name?: string;
  /** Empty: unchanged (Gitea only sets a password when one is given; its Go SDK always sends the field). */
  @IsOptional() @IsString() @MaxLength(255) password?: string;
  @IsOptional() @IsBoolean() must_change_password?: boolean;
  @IsOptional() @IsString() @MaxLength(255) website?: string;
  @IsOptional() @IsString() @MaxLength(255) location?: string;
  @IsOptional() @IsString() @MaxLength(255) description?: string;
  @IsOptional() @IsBoolean() active?: boolean;
  @IsOptional() @IsBoolean() admin?: boolean;
  @IsOptional() @IsBoolean() allow_git_hook?: boolean;
  @IsOptional() @IsBoolean() allow_import_local?: boolean;
  @IsOptional() @IsInt() @Min(-1) @Max(MAX_INT32) max_repo_creation?: number;
  @IsOptional() @IsBoolean() prohibit_login?: boolean;
  @IsOptional() @IsBoolean() allow_create_organization?: boolean;
  @IsOptional() @IsBoolean() restricted?: boolean;
  @IsOptional() @IsIn(VISIBILITIES) visibility?: Visibility;
}

export class SearchUsersQuery extends ListQuery {
  @IsOptional() @IsString() @MaxLength(255) q?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT32) uid?: number;
}

export const ADMIN_USER_SORTS = ['oldest', 'newest', 'alphabetically', 'reversealphabetically', 'recentupdate', 'leastupdate'] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number];

export class AdminSearchUsersQuery extends ListQuery {
  @IsOptional() @IsString() @MaxLength(255) q?: string;
  /** Cairn has only the local source (0); any other matches nobody. */
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT32) source_id?: number;
  @IsOptional() @IsString() @MaxLength(255) login_name?: string;
  @IsOptional() @IsIn(ADMIN_USER_SORTS) sort?: AdminUserSort;
  @IsOptional() @IsIn(VISIBILITIES) visibility?: Visibility;
  @IsOptional() @Transform(queryBool) @IsBoolean() is_active?: boolean;
  @IsOptional() @Transform(queryBool) @IsBoolean() is_admin?: boolean;
  @IsOptional() @Transform(queryBool) @IsBoolean() is_restricted?: boolean;
  @IsOptional() @Transform(queryBool) @IsBoolean() is_2fa_enabled?: boolean;
  @IsOptional() @Transform(queryBool) @IsBoolean() is_prohibit_login?: boolean;
}

export class ActorRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
}

export class CreateUserRequest extends ActorRequest {
  @ValidateNested() @Type(() => CreateUserBody) body: CreateUserBody;
}
export class EditUserRequest extends ActorRequest {
  @IsString() username: string;
  @ValidateNested() @Type(() => EditUserBody) body: EditUserBody;
}
export class UsernameRequest extends ActorRequest {
  @IsString() @MaxLength(255) username: string;
}
export class SearchUsersRequest extends ActorRequest {
  @ValidateNested() @Type(() => SearchUsersQuery) query: SearchUsersQuery;
}
export class AdminSearchUsersRequest extends ActorRequest {
  @ValidateNested() @Type(() => AdminSearchUsersQuery) query: AdminSearchUsersQuery;
}
export class LookupUsersRequest {
  @IsOptional() @IsInt({ each: true }) ids?: number[];
  @IsOptional() @IsString({ each: true }) emails?: string[];
  @IsOptional() @IsString({ each: true }) logins?: string[];
}
export interface LookupUsersReply {
  users: UserDto[];
  byEmail: Record<string, number>;
  /** `users` are rendered as an anonymous viewer sees them (`is_admin` false), so access decisions read admins here. */
  adminIds: number[];
}

export interface OwnerDto {
  id: number;
  login: string;
  kind: 'user' | 'organization';
  visibility: Visibility;
  user: UserDto;
}
export class OwnerResolveRequest {
  @IsString() @MaxLength(255) name: string;
}
