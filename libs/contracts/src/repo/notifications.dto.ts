import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';
import { ActorDto } from '../common/actor.js';
import { ListQuery } from '../common/pagination.js';
import { ACCESS_LEVELS, RepoRefDto, type AccessLevel } from './repo-access.dto.js';
import { queryBool } from '../common/query-bool.js';
import type { RepositoryDto } from './repository.dto.js';

/** A notification thread's status, as Gitea stores it. */
export const NOTIFICATION_STATUSES = ['unread', 'read', 'pinned'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** `subject-type` values Gitea documents (Cairn notifies about issues and pull requests only). */
export const NOTIFICATION_SUBJECT_TYPES = ['issue', 'pull', 'commit', 'repository'] as const;

/** Gitea's `NotificationSubject`. */
export interface NotificationSubjectDto {
  title: string;
  url: string;
  html_url: string;
  latest_comment_url: string;
  latest_comment_html_url: string;
  /** `Issue` or `Pull`. */
  type: 'Issue' | 'Pull';
  /** `open`, `closed`, or `merged` for a merged pull request. */
  state: 'open' | 'closed' | 'merged';
}

/** Gitea's `NotificationThread`; the repository carries no `permissions` (Gitea leaves them out). */
export interface NotificationThreadDto {
  id: number;
  repository: Omit<RepositoryDto, 'permissions'>;
  subject: NotificationSubjectDto;
  unread: boolean;
  pinned: boolean;
  updated_at: string;
  url: string;
}

/** Gitea's `NotificationCount`. */
export interface NotificationCountDto {
  new: number;
}

/** A query parameter given once or several times (`collectionFormat: multi`): always an array. */
function manyValues({ value }: { value: unknown }): unknown {
  if (value === undefined || value === null) return undefined;
  return Array.isArray(value) ? value : [value];
}

/** `GET /notifications` and `GET /repos/{owner}/{repo}/notifications` query. */
export class NotificationListQuery extends ListQuery {
  /** Every status (`status-types` is then ignored, as in Gitea). */
  @IsOptional() @Transform(queryBool) @IsBoolean() all?: boolean;
  /** Statuses to show (default `unread` and `pinned`); unknown values are ignored. */
  @IsOptional() @Transform(manyValues) @IsArray() @ArrayMaxSize(8) @IsString({ each: true }) @MaxLength(16, { each: true })
  'status-types'?: string[];
  /** Subject types to show (`issue`, `pull`, `commit`, `repository`). */
  @IsOptional() @Transform(manyValues) @IsArray() @ArrayMaxSize(8) @IsIn(NOTIFICATION_SUBJECT_TYPES, { each: true })
  'subject-type'?: string[];
  /** Only threads updated after this time (RFC 3339). */
  @IsOptional() @IsString() @MaxLength(64) since?: string;
  /** Only threads updated before this time (RFC 3339). */
  @IsOptional() @IsString() @MaxLength(64) before?: string;
}

/** `PUT /notifications` and `PUT /repos/{owner}/{repo}/notifications` query. */
export class NotificationReadQuery {
  /** Threads updated at or after this time (RFC 3339) are left alone; default: none are. */
  @IsOptional() @IsString() @MaxLength(64) last_read_at?: string;
  /** Every status (`status-types` is then ignored). */
  @IsOptional() @Transform(queryBool) @IsBoolean() all?: boolean;
  /** Statuses to change (default `unread`). */
  @IsOptional() @Transform(manyValues) @IsArray() @ArrayMaxSize(8) @IsString({ each: true }) @MaxLength(16, { each: true })
  'status-types'?: string[];
  /** The new status (default `read`). */
  @IsOptional() @IsString() @MaxLength(16) 'to-status'?: string;
}

/** `PATCH /notifications/threads/{id}` query. */
export class NotificationThreadQuery {
  @IsOptional() @IsString() @MaxLength(16) 'to-status'?: string;
}

/** `repo.notification.list`: the actor's threads, of one repository when `repo` is set. */
export class ListNotificationsRequest {
  @ValidateNested() @Type(() => ActorDto) actor: ActorDto;
  @IsOptional() @ValidateNested() @Type(() => RepoRefDto) repo?: RepoRefDto;
  /** With `repo`: the actor's level on it, judged against `REPO_ACCESS_NEEDS` (read). */
  @IsOptional() @IsIn(ACCESS_LEVELS) access?: AccessLevel;
  @ValidateNested() @Type(() => NotificationListQuery) query: NotificationListQuery;
}

/** `repo.notification.read`: changes the status of the actor's threads (of one repository when `repo` is set). */
export class ReadNotificationsRequest {
  @ValidateNested() @Type(() => ActorDto) actor: ActorDto;
  @IsOptional() @ValidateNested() @Type(() => RepoRefDto) repo?: RepoRefDto;
  /** With `repo`: the actor's level on it, judged against `REPO_ACCESS_NEEDS` (read). */
  @IsOptional() @IsIn(ACCESS_LEVELS) access?: AccessLevel;
  @ValidateNested() @Type(() => NotificationReadQuery) query: NotificationReadQuery;
}

/** `repo.notification.thread-get` / `thread-read`. */
export class NotificationThreadRequest {
  @ValidateNested() @Type(() => ActorDto) actor: ActorDto;
  @IsInt() @Min(1) id: number;
  @IsOptional() @IsString() @MaxLength(16) toStatus?: string;
}

/** `repo.notification.count`. */
export class NotificationCountRequest {
  @ValidateNested() @Type(() => ActorDto) actor: ActorDto;
}
