import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';
import { ActorDto } from '../common/actor.js';
import { ListQuery } from '../common/pagination.js';
import { ACCESS_LEVELS, RepoRefDto, type AccessLevel } from './repo-access.dto.js';
import { queryBool } from '../common/query-bool.js';
import type { RepositoryDto } from './repository.dto.js';

export const NOTIFICATION_STATUSES = ['unread', 'read', 'pinned'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export const NOTIFICATION_SUBJECT_TYPES = ['issue', 'pull', 'commit', 'repository'] as const;

export interface NotificationSubjectDto {
  title: string;
  url: string;
  html_url: string;
  latest_comment_url: string;
  latest_comment_html_url: string;
  type: 'Issue' | 'Pull';
  state: 'open' | 'closed' | 'merged';
}

/** The repository carries no `permissions` (Gitea leaves them out). */
export interface NotificationThreadDto {
  id: number;
  repository: Omit<RepositoryDto, 'permissions'>;
  subject: NotificationSubjectDto;
  unread: boolean;
  pinned: boolean;
  updated_at: string;
  url: string;
}

export interface NotificationCountDto {
  new: number;
}

/** `collectionFormat: multi`: always an array. */
function manyValues({ value }: { value: unknown }): unknown {
  if (value === undefined || value === null) return undefined;
  return Array.isArray(value) ? value : [value];
}

export class NotificationListQuery extends ListQuery {
  /** `status-types` is then ignored, as in Gitea. */
  @IsOptional() @Transform(queryBool) @IsBoolean() all?: boolean;
  @IsOptional() @Transform(manyValues) @IsArray() @ArrayMaxSize(8) @IsString({ each: true }) @MaxLength(16, { each: true })
  'status-types'?: string[];
  @IsOptional() @Transform(manyValues) @IsArray() @ArrayMaxSize(8) @IsIn(NOTIFICATION_SUBJECT_TYPES, { each: true })
  'subject-type'?: string[];
  @IsOptional() @IsString() @MaxLength(64) since?: string;
  @IsOptional() @IsString() @MaxLength(64) before?: string;
}

export class NotificationReadQuery {
  @IsOptional() @IsString() @MaxLength(64) last_read_at?: string;
  @IsOptional() @Transform(queryBool) @IsBoolean() all?: boolean;
  @IsOptional() @Transform(manyValues) @IsArray() @ArrayMaxSize(8) @IsString({ each: true }) @MaxLength(16, { each: true })
  'status-types'?: string[];
  @IsOptional() @IsString() @MaxLength(16) 'to-status'?: string;
}

export class NotificationThreadQuery {
  @IsOptional() @IsString() @MaxLength(16) 'to-status'?: string;
}

export class ListNotificationsRequest {
  @ValidateNested() @Type(() => ActorDto) actor: ActorDto;
  @IsOptional() @ValidateNested() @Type(() => RepoRefDto) repo?: RepoRefDto;
  /** With `repo`: the actor's level on it, judged against `REPO_ACCESS_NEEDS` (read). */
  @IsOptional() @IsIn(ACCESS_LEVELS) access?: AccessLevel;
  @ValidateNested() @Type(() => NotificationListQuery) query: NotificationListQuery;
}

export class ReadNotificationsRequest {
  @ValidateNested() @Type(() => ActorDto) actor: ActorDto;
  @IsOptional() @ValidateNested() @Type(() => RepoRefDto) repo?: RepoRefDto;
  /** With `repo`: the actor's level on it, judged against `REPO_ACCESS_NEEDS` (read). */
  @IsOptional() @IsIn(ACCESS_LEVELS) access?: AccessLevel;
  @ValidateNested() @Type(() => NotificationReadQuery) query: NotificationReadQuery;
}

export class NotificationThreadRequest {
  @ValidateNested() @Type(() => ActorDto) actor: ActorDto;
  @IsInt() @Min(1) id: number;
  @IsOptional() @IsString() @MaxLength(16) toStatus?: string;
}

export class NotificationCountRequest {
  @ValidateNested() @Type(() => ActorDto) actor: ActorDto;
}
