import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ListQuery, MAX_INT32 } from '../common/pagination.js';
import type { UserDto } from '../identity/user.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';
import type { RepoEventRepository } from './repo-events.js';

/** Gitea's `Attachment` (release assets). */
export interface AttachmentDto {
  id: number;
  name: string;
  size: number;
  download_count: number;
  created_at: string;
  uuid: string;
  browser_download_url: string;
}

/** Gitea's `Release`. */
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

/** Longest release tag name (Gitea's `MaxSize(255)` on `tag_name`). */
export const RELEASE_TAG_MAX_LENGTH = 255;

/** `POST /repos/{o}/{r}/releases` body (Gitea's `CreateReleaseOption`). */
export class CreateReleaseBody {
  @IsString() @MaxLength(RELEASE_TAG_MAX_LENGTH) tag_name: string;
  /** Branch or commit the tag is created at when it does not exist (default branch when absent). */
  @IsOptional() @IsString() @MaxLength(1024) target_commitish?: string;
  @IsOptional() @IsString() @MaxLength(255) name?: string;
  @IsOptional() @IsString() @MaxLength(1_000_000) body?: string;
  @IsOptional() @IsBoolean() draft?: boolean;
  @IsOptional() @IsBoolean() prerelease?: boolean;
  /** With a message, the tag created for the release is annotated. */
  @IsOptional() @IsString() @MaxLength(65536) tag_message?: string;
}

/** `PATCH …/releases/{id}` body (Gitea's `EditReleaseOption`): empty strings leave a field as it is. */
export class EditReleaseBody {
  @IsOptional() @IsString() @MaxLength(RELEASE_TAG_MAX_LENGTH) tag_name?: string;
  @IsOptional() @IsString() @MaxLength(1024) target_commitish?: string;
  @IsOptional() @IsString() @MaxLength(255) name?: string;
  @IsOptional() @IsString() @MaxLength(1_000_000) body?: string;
  @IsOptional() @IsBoolean() draft?: boolean;
  @IsOptional() @IsBoolean() prerelease?: boolean;
}

/** `GET …/releases` query (Gitea's names; `draft` is ignored for readers, who never see drafts). */
export class ListReleasesQuery extends ListQuery {
  /** Only drafts (`true`) or no drafts (`false`). */
  @IsOptional() @IsString() @MaxLength(8) draft?: string;
  /** Only pre-releases (`true`) or none (`false`). */
  @IsOptional() @IsString() @MaxLength(8) 'pre-release'?: string;
}

/** `repo.release.list`. */
export class ListReleasesRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
  @IsOptional() @IsBoolean() draft?: boolean;
  @IsOptional() @IsBoolean() prerelease?: boolean;
}

/** `repo.release.get` / `repo.release.delete`. */
export class ReleaseIdRequest extends RepoScopedRequest {
  @IsInt() @Min(1) @Max(MAX_INT32) id: number;
}

/** `repo.release.get-by-tag` / `repo.release.delete-by-tag`. */
export class ReleaseTagRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) tag: string;
}

/** `repo.release.create`. */
export class CreateReleaseRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateReleaseBody) body: CreateReleaseBody;
}

/** `repo.release.edit`. */
export class EditReleaseRequest extends ReleaseIdRequest {
  @ValidateNested() @Type(() => EditReleaseBody) body: EditReleaseBody;
}

/** Longest attachment name (Gitea's `attachment.name` is a varchar(255)). */
export const ATTACHMENT_NAME_MAX_LENGTH = 255;

/**
 * An attachment name as stored: a file name (no path separators, no control characters), at most
 * {@link ATTACHMENT_NAME_MAX_LENGTH} characters; it is the last segment of its download URL.
 */
export function isValidAttachmentName(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  return name.length > 0 && name.length <= ATTACHMENT_NAME_MAX_LENGTH && name !== '.' && name !== '..' && !/[/\\\x00-\x1f\x7f]/.test(name);
}

/** `PATCH …/releases/{id}/assets/{attachment_id}` body (Gitea's `EditAttachmentOptions`): an empty name keeps it. */
export class EditReleaseAssetBody {
  @IsOptional() @IsString() @MaxLength(ATTACHMENT_NAME_MAX_LENGTH) name?: string;
}

/** `repo.release.asset.get` / `repo.release.asset.delete`. */
export class ReleaseAssetRequest extends ReleaseIdRequest {
  @IsInt() @Min(1) @Max(MAX_INT32) attachmentId: number;
}

/** `repo.release.asset.edit`. */
export class EditReleaseAssetRequest extends ReleaseAssetRequest {
  @ValidateNested() @Type(() => EditReleaseAssetBody) body: EditReleaseAssetBody;
}

/** `repo.release.asset.download`: `/{owner}/{repo}/releases/download/{tag}/{name}` or `/attachments/{uuid}`. */
export class AssetDownloadRequest extends RepoScopedRequest {
  @IsOptional() @IsString() @MaxLength(1024) tag?: string;
  @IsOptional() @IsString() @MaxLength(1024) name?: string;
  @IsOptional() @IsUUID() uuid?: string;
  /** A `HEAD` request: resolved and checked like a download, but not counted as one. */
  @IsOptional() @IsBoolean() headOnly?: boolean;
}

/** What the gateway needs to stream an attachment from repo-service's internal endpoint. */
export interface AssetDownloadReply {
  uuid: string;
  name: string;
  size: number;
}

/** `repo.release.asset.locate`. */
export class AssetLocateRequest {
  @IsUUID() uuid: string;
}

/** The repository an attachment belongs to (its owner's and its own name). */
export interface AssetLocateReply {
  owner: string;
  repo: string;
}

/** Events of releases (through repo-service's outbox): Gitea's `release` webhook. */
export const ReleaseEvents = {
  /** A release was published (created as a non-draft, or a draft published). */
  published: 'repo.evt.release.published',
  /** A published release was edited. */
  updated: 'repo.evt.release.updated',
  /** A published release was deleted (its tag stays). */
  deleted: 'repo.evt.release.deleted',
} as const;

/** The payload of every {@link ReleaseEvents} event: Gitea's `ReleasePayload` parts (the note cut to the event limit). */
export interface ReleaseEventData {
  action: 'published' | 'updated' | 'deleted';
  release: ReleaseDto;
  repository: RepoEventRepository;
  sender: UserDto | null;
}
