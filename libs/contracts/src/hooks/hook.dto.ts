import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, MaxLength, Min, ValidateIf,
  ValidateNested,
} from 'class-validator';
import { ActorDto } from '../common/actor.js';
import { ListQuery } from '../common/pagination.js';
import { ACCESS_LEVELS, RepoRefDto, type AccessLevel } from '../repo/repo-access.dto.js';

export const HOOK_TYPES = [
  'gitea', 'gogs', 'slack', 'discord', 'dingtalk', 'telegram', 'msteams', 'feishu', 'matrix', 'wechatwork', 'packagist',
] as const;
export type HookType = (typeof HOOK_TYPES)[number];

/** `events` in a request may also name a family (`issues`, `pull_request`) or `*`; hooks-service expands them. */
export const HOOK_EVENT_KEYS = [
  'create', 'delete', 'fork', 'push',
  'issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment',
  'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment',
  'pull_request_review', 'pull_request_sync', 'pull_request_review_request',
  'wiki', 'repository', 'release', 'package', 'status', 'workflow_job', 'workflow_run',
] as const;
export type HookEventKey = (typeof HOOK_EVENT_KEYS)[number];

export const HOOK_CONTENT_TYPES = ['json', 'form'] as const;

export const HOOK_SCOPE_LEVELS = ['admin', 'org', 'user', 'repo'] as const;
export type HookScopeLevel = (typeof HOOK_SCOPE_LEVELS)[number];

/** `user` is the actor's own hooks (`/user/hooks`: every repository the actor owns). */
export class HookScopeDto {
  @IsIn(HOOK_SCOPE_LEVELS) level: HookScopeLevel;
  @ValidateIf((o: HookScopeDto) => o.level === 'repo') @ValidateNested() @Type(() => RepoRefDto) repo?: RepoRefDto;
  @ValidateIf((o: HookScopeDto) => o.level === 'repo') @IsIn(ACCESS_LEVELS) access?: AccessLevel;
  @ValidateIf((o: HookScopeDto) => o.level === 'org') @IsString() @MaxLength(255) org?: string;
}

/** Gitea's `CreateHookOption`; hooks-service checks `config`'s values so that the 422 messages are Gitea's. */
export class CreateHookBody {
  @IsString() @MaxLength(64) type: string;
  @IsObject() config: Record<string, unknown>;
  /** Empty or absent = `["push"]`. */
  @IsOptional() @IsArray() @ArrayMaxSize(64) @IsString({ each: true }) @MaxLength(64, { each: true }) events?: string[];
  @IsOptional() @IsString() @MaxLength(1024) branch_filter?: string;
  @IsOptional() @IsString() @MaxLength(4096) authorization_header?: string;
  /** Default false, as Gitea. */
  @IsOptional() @IsBoolean() active?: boolean;
}

export class EditHookBody {
  @IsOptional() @IsObject() config?: Record<string, unknown>;
  @IsOptional() @IsArray() @ArrayMaxSize(64) @IsString({ each: true }) @MaxLength(64, { each: true }) events?: string[];
  @IsOptional() @IsString() @MaxLength(1024) branch_filter?: string;
  @IsOptional() @IsString() @MaxLength(4096) authorization_header?: string;
  @IsOptional() @IsBoolean() active?: boolean;
}

export interface HookDto {
  id: number;
  type: string;
  branch_filter: string;
  config: Record<string, string>;
  events: string[];
  authorization_header: string;
  active: boolean;
  is_system_webhook: boolean;
  updated_at: string;
  created_at: string;
}

export const ADMIN_HOOK_LIST_TYPES = ['system', 'default', 'all'] as const;
export type AdminHookListType = (typeof ADMIN_HOOK_LIST_TYPES)[number];

export class ListHooksQuery extends ListQuery {
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsIn(ADMIN_HOOK_LIST_TYPES, { message: 'type must be one of: system, default, all' })
  type?: AdminHookListType;
}

export class HookScopedRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @ValidateNested() @Type(() => HookScopeDto) scope: HookScopeDto;
}

export class HookListRequest extends HookScopedRequest {
  @IsOptional() @ValidateNested() @Type(() => ListHooksQuery) query?: ListHooksQuery;
}

export class HookRequest extends HookScopedRequest {
  @IsInt() @Min(1) hookId: number;
}

export class HookCreateRequest extends HookScopedRequest {
  @ValidateNested() @Type(() => CreateHookBody) body: CreateHookBody;
}

export class HookEditRequest extends HookRequest {
  @ValidateNested() @Type(() => EditHookBody) body: EditHookBody;
}

export class HookTestQuery {
  @IsOptional() @IsString() @MaxLength(255) ref?: string;
}

export class HookTestRequest extends HookRequest {
  @IsOptional() @IsString() @MaxLength(255) ref?: string;
}

export class RepositoryInitRepo {
  @IsInt() @Min(1) id: number;
  @IsInt() ownerId: number;
  @IsOptional() @IsString() ownerName?: string;
  @IsOptional() @IsString() name?: string;
}

export class RepositoryInitRequest {
  @ValidateNested() @Type(() => RepositoryInitRepo) repository: RepositoryInitRepo;
}

export interface RepositoryInitReply {
  copied: number;
}
