import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, MaxLength, Min, ValidateIf,
  ValidateNested,
} from 'class-validator';
import { ActorDto } from '../common/actor.js';
import { ListQuery } from '../common/pagination.js';
import { ACCESS_LEVELS, RepoRefDto, type AccessLevel } from '../repo/repo-access.dto.js';

/** Hook types (Gitea's `HookType`): `gitea` is the native payload; the others are chat/integration formats. */
export const HOOK_TYPES = [
  'gitea', 'gogs', 'slack', 'discord', 'dingtalk', 'telegram', 'msteams', 'feishu', 'matrix', 'wechatwork', 'packagist',
] as const;
export type HookType = (typeof HOOK_TYPES)[number];

/**
 * Every event key a hook can enable (Gitea's `HookEvents` booleans), in display order. `events` in a request may also
 * name a family (`issues`, `pull_request`) or `*`; hooks-service expands them (`hook-events.ts`).
 */
export const HOOK_EVENT_KEYS = [
  'create', 'delete', 'fork', 'push',
  'issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment',
  'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment',
  'pull_request_review', 'pull_request_sync', 'pull_request_review_request',
  'wiki', 'repository', 'release', 'package', 'status', 'workflow_job', 'workflow_run',
] as const;
export type HookEventKey = (typeof HOOK_EVENT_KEYS)[number];

/** `config.content_type` values. */
export const HOOK_CONTENT_TYPES = ['json', 'form'] as const;

/** Where a hook lives: the admin level (system and default hooks), an organization, or a repository. */
export const HOOK_SCOPE_LEVELS = ['admin', 'org', 'user', 'repo'] as const;
export type HookScopeLevel = (typeof HOOK_SCOPE_LEVELS)[number];

/**
 * The scope of a hooks request. `repo` carries the gateway's resolved repository and access; `org` the org name;
 * `user` is the actor's own hooks (`/user/hooks`: every repository the actor owns).
 */
export class HookScopeDto {
  /** `admin`, `org`, `user` or `repo`. */
  @IsIn(HOOK_SCOPE_LEVELS) level: HookScopeLevel;
  /** The repository (level `repo`), as resolved by the gateway's repository guard. */
  @ValidateIf((o: HookScopeDto) => o.level === 'repo') @ValidateNested() @Type(() => RepoRefDto) repo?: RepoRefDto;
  /** The actor's access to that repository (level `repo`). */
  @ValidateIf((o: HookScopeDto) => o.level === 'repo') @IsIn(ACCESS_LEVELS) access?: AccessLevel;
  /** The organization name (level `org`). */
  @ValidateIf((o: HookScopeDto) => o.level === 'org') @IsString() @MaxLength(255) org?: string;
}

/**
 * `POST …/hooks` body (Gitea's `CreateHookOption`). `config` is a string map with `url`, `content_type`
 * (`json`|`form`), `secret`, and at the admin level `is_system_webhook` (a JSON boolean or Gitea's string forms);
 * its values are checked by hooks-service so that the 422 messages are Gitea's.
 */
export class CreateHookBody {
  /** Hook type, see {@link HOOK_TYPES}. */
  @IsString() @MaxLength(64) type: string;
  /** `url`, `content_type`, `secret`, `is_system_webhook`, and the type's own keys (slack `channel`, …). */
  @IsObject() config: Record<string, unknown>;
  /** Event names (Gitea's, plus `*` for every event); empty or absent = `["push"]`. */
  @IsOptional() @IsArray() @ArrayMaxSize(64) @IsString({ each: true }) @MaxLength(64, { each: true }) events?: string[];
  /** Glob over the short branch name for push/create/delete (empty or `*` = all branches). */
  @IsOptional() @IsString() @MaxLength(1024) branch_filter?: string;
  /** Sent verbatim as the `Authorization` header of every delivery (stored encrypted). */
  @IsOptional() @IsString() @MaxLength(4096) authorization_header?: string;
  /** Deliver at all; default false, as Gitea. */
  @IsOptional() @IsBoolean() active?: boolean;
}

/** `PATCH …/hooks/{id}` body (Gitea's `EditHookOption`): only the fields sent change. */
export class EditHookBody {
  /** Config keys to change (`url`, `content_type`, `secret`, type-specific keys). */
  @IsOptional() @IsObject() config?: Record<string, unknown>;
  @IsOptional() @IsArray() @ArrayMaxSize(64) @IsString({ each: true }) @MaxLength(64, { each: true }) events?: string[];
  @IsOptional() @IsString() @MaxLength(1024) branch_filter?: string;
  @IsOptional() @IsString() @MaxLength(4096) authorization_header?: string;
  @IsOptional() @IsBoolean() active?: boolean;
}

/** Gitea's `Hook` (never carries the secret), plus `is_system_webhook`. */
export interface HookDto {
  id: number;
  type: string;
  branch_filter: string;
  /** `url`, `content_type`, type-specific keys; admin hooks also `is_system_webhook` ("true"/"false"). */
  config: Record<string, string>;
  events: string[];
  authorization_header: string;
  active: boolean;
  /** True for system hooks (admin level, delivered for every repository). */
  is_system_webhook: boolean;
  updated_at: string;
  created_at: string;
}

/** `GET /admin/hooks?type=` values. */
export const ADMIN_HOOK_LIST_TYPES = ['system', 'default', 'all'] as const;
export type AdminHookListType = (typeof ADMIN_HOOK_LIST_TYPES)[number];

/** `GET …/hooks` query; `type` only at the admin level (absent = `system`). */
export class ListHooksQuery extends ListQuery {
  /** `system`, `default` or `all` (empty = absent). */
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsIn(ADMIN_HOOK_LIST_TYPES, { message: 'type must be one of: system, default, all' })
  type?: AdminHookListType;
}

/** Every hooks request: the actor and the scope. */
export class HookScopedRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @ValidateNested() @Type(() => HookScopeDto) scope: HookScopeDto;
}

/** `hooks.webhook.list`. */
export class HookListRequest extends HookScopedRequest {
  @IsOptional() @ValidateNested() @Type(() => ListHooksQuery) query?: ListHooksQuery;
}

/** `hooks.webhook.get` / `delete`: one hook of the scope. */
export class HookRequest extends HookScopedRequest {
  @IsInt() @Min(1) hookId: number;
}

/** `hooks.webhook.create`. */
export class HookCreateRequest extends HookScopedRequest {
  @ValidateNested() @Type(() => CreateHookBody) body: CreateHookBody;
}

/** `hooks.webhook.edit`. */
export class HookEditRequest extends HookRequest {
  @ValidateNested() @Type(() => EditHookBody) body: EditHookBody;
}

/** `POST …/hooks/{id}/tests?ref=`: the branch whose head commit goes into the test payload. */
export class HookTestQuery {
  @IsOptional() @IsString() @MaxLength(255) ref?: string;
}

/** `hooks.webhook.test`: `ref` is the branch whose head commit goes into the payload (default branch if absent). */
export class HookTestRequest extends HookRequest {
  @IsOptional() @IsString() @MaxLength(255) ref?: string;
}

/** The repository of {@link RepositoryInitRequest} (a `RepoEventRepository`; only these fields are used). */
export class RepositoryInitRepo {
  @IsInt() @Min(1) id: number;
  @IsInt() ownerId: number;
  @IsOptional() @IsString() ownerName?: string;
  @IsOptional() @IsString() name?: string;
}

/** `hooks.repository.init`: `{ repository: RepoEventRepository }`. */
export class RepositoryInitRequest {
  @ValidateNested() @Type(() => RepositoryInitRepo) repository: RepositoryInitRepo;
}

/** `hooks.repository.init` reply: how many default hooks were copied by this call (0 when already done). */
export interface RepositoryInitReply {
  copied: number;
}
