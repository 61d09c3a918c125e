import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ListQuery, MAX_INT32 } from '../common/pagination.js';
import type { UserDto } from '../identity/user.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';
import type { RepoEventRepository } from './repo-events.js';

export interface AttachmentDto {
  id: number;
  name: string;
  size: number;
  download_count: number;
  created_at: string;
  uuid: string;
  browser_download_url: string;
}

export interface ReleaseDto {
  id: number;
  tag_name: string;
  target_commitish: string;
  name: string;
  body: string;
  url: string;
  html_url: string;
  tarball_url: string;
  zipball_url: string;
  upload_url: string;
  draft: boolean;
  prerelease: boolean;
  created_at: string;
  published_at: string;
  author: UserDto;
  assets: AttachmentDto[];
}

/** Gitea's `MaxSize(255)` on `tag_name`. */
export const RELEASE_TAG_MAX_LENGTH = 255;

export class CreateReleaseBody {
  @IsString() @MaxLength(RELEASE_TAG_MAX_LENGTH) tag_name: string;
  @IsOptional() @IsString() @MaxLength(1024) target_commitish?: string;
  @IsOptional() @IsString() @MaxLength(255) name?: string;
  @IsOptional() @IsString() @MaxLength(1_000_000) body?: string;
  @IsOptional() @IsBoolean() draft?: boolean;
  @IsOptional() @IsBoolean() prerelease?: boolean;
  @IsOptional() @IsString() @MaxLength(65536) tag_message?: string;
}

export class EditReleaseBody {
  @IsOptional() @IsString() @MaxLength(RELEASE_TAG_MAX_LENGTH) tag_name?: string;
  @IsOptional() @IsString() @MaxLength(1024) target_commitish?: string;
  @IsOptional() @IsString() @MaxLength(255) name?: string;
  @IsOptional() @IsString() @MaxLength(1_000_000) body?: string;
  @IsOptional() @IsBoolean() draft?: boolean;
  @IsOptional() @IsBoolean() prerelease?: boolean;
}

/** `draft` is ignored for readers, who never see drafts. */
export class ListReleasesQuery extends ListQuery {
  @IsOptional() @IsString() @MaxLength(8) draft?: string;
  @IsOptional() @IsString() @MaxLength(8) 'pre-release'?: string;
}

export class ListReleasesRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
  @IsOptional() @IsBoolean() draft?: boolean;
  @IsOptional() @IsBoolean() prerelease?: boolean;
}

export class ReleaseIdRequest extends RepoScopedRequest {
  @IsInt() @Min(1) @Max(MAX_INT32) id: number;
}

export class ReleaseTagRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) tag: string;
}

export class CreateReleaseRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateReleaseBody) body: CreateReleaseBody;
}

export class EditReleaseRequest extends ReleaseIdRequest {
  @ValidateNested() @Type(() => EditReleaseBody) body: EditReleaseBody;
}

export const ATTACHMENT_NAME_MAX_LENGTH = 255;

/** It is the last segment of its download URL: no path separators, no control characters. */
export function isValidAttachmentName(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  return name.length > 0 && name.length <= ATTACHMENT_NAME_MAX_LENGTH && name !== '.' && name !== '..' && !/[/\\\x00-\x1f\x7f]/.test(name);
}

export class EditReleaseAssetBody {
  @IsOptional() @IsString() @MaxLength(ATTACHMENT_NAME_MAX_LENGTH) name?: string;
}

export class ReleaseAssetRequest extends ReleaseIdRequest {
  @IsInt() @Min(1) @Max(MAX_INT32) attachmentId: number;
}

export class EditReleaseAssetRequest extends ReleaseAssetRequest {
  @ValidateNested() @Type(() => EditReleaseAssetBody) body: EditReleaseAssetBody;
}

export class AssetDownloadRequest extends RepoScopedRequest {
  @IsOptional() @IsString() @MaxLength(1024) tag?: string;
  @IsOptional() @IsString() @MaxLength(1024) name?: string;
  @IsOptional() @IsUUID() uuid?: string;
  /** A `HEAD` request: checked like a download, not counted as one. */
  @IsOptional() @IsBoolean() headOnly?: boolean;
}

export interface AssetDownloadReply {
  uuid: string;
  name: string;
  size: number;
}

export class AssetLocateRequest {
  @IsUUID() uuid: string;
}

export interface AssetLocateReply {
  owner: string;
  repo: string;
}

/** Gitea's `release` webhook, through repo-service's outbox. */
export const ReleaseEvents = {
  /** A release was published (created as a non-draft, or a draft published). */
  published: 'repo.evt.release.published',
  /** A published release was edited. */
  updated: 'repo.evt.release.updated',
  /** A published release was deleted (its tag stays). */
  deleted: 'repo.evt.release.deleted',
} as const;

/** Gitea's `ReleasePayload` parts (the note cut to the event limit). */
export interface ReleaseEventData {
  action: 'published' | 'updated' | 'deleted';
  release: ReleaseDto;
  repository: RepoEventRepository;
  sender: UserDto | null;
}
