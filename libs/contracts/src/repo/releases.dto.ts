import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
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
