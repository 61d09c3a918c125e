import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ListQuery, MAX_INT32 } from '../common/pagination.js';
import type { CommitMetaDto, PayloadCommitVerificationDto } from './commits.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';

/** Gitea's `Tag`. */
export interface TagDto {
  name: string;
  message: string;
  /** The tag object's id (a lightweight tag: its commit's id). */
  id: string;
  commit: CommitMetaDto;
  zipball_url: string;
  tarball_url: string;
}

/** Gitea's `CommitUser` as an annotated tag's tagger. */
export interface TaggerDto {
  name: string;
  email: string;
  date: string;
}

/** Gitea's `AnnotatedTag`. */
export interface AnnotatedTagDto {
  tag: string;
  sha: string;
  url: string;
  message: string;
  tagger: TaggerDto | null;
  object: { type: string; url: string; sha: string };
  verification: PayloadCommitVerificationDto | null;
}

/** Gitea's `GitEntry`. */
export interface GitEntryDto {
  path: string;
  mode: string;
  type: string;
  size: number;
  sha: string;
  url: string;
}

/** Gitea's `GitTreeResponse`. */
export interface GitTreeResponseDto {
  sha: string;
  url: string;
  tree: GitEntryDto[];
  truncated: boolean;
  page: number;
  total_count: number;
}

/** Gitea's `GitBlobResponse`; `content`/`encoding` are null for a blob larger than the inline limit. */
export interface GitBlobResponseDto {
  content: string | null;
  encoding: string | null;
  url: string;
  sha: string;
  size: number;
}

/**
 * `repo.git.blob` reply: the blob, and `deferred` when its content is within `maxBlobSize` but too large for a bus
 * message — the gateway then reads its bytes from repo-service's internal HTTP endpoint (`?blob=<id>`).
 */
export interface GetBlobReply {
  blob: GitBlobResponseDto;
  deferred?: boolean;
}

/** Gitea's `Reference`. */
export interface ReferenceDto {
  ref: string;
  url: string;
  object: { type: string; sha: string; url: string };
}

/** `POST /repos/{o}/{r}/tags` body (Gitea's `CreateTagOption`). */
export class CreateTagBody {
  @IsString() @MaxLength(255) tag_name: string;
  /** With a message, an annotated tag; without, a lightweight one. */
  @IsOptional() @IsString() @MaxLength(65536) message?: string;
  /** Branch, tag or commit to tag (default branch when absent). */
  @IsOptional() @IsString() @MaxLength(1024) target?: string;
}

/** `GET …/git/trees/{sha}` query (Gitea's `GetTree`). */
export class GitTreeQuery {
  /** List the whole tree, sub-trees included. */
  @IsOptional() @IsString() @MaxLength(8) recursive?: string;
  /** Page number, 1-based. */
  @IsOptional() @Type(() => Number) @IsInt() @Min(-MAX_INT32) @Max(MAX_INT32) page?: number;
  /** Entries per page (at most `[api] DEFAULT_GIT_TREES_PER_PAGE`). */
  @IsOptional() @Type(() => Number) @IsInt() @Min(-MAX_INT32) @Max(MAX_INT32) per_page?: number;
}

/** `repo.tag.list`: one page of tags, newest first. */
export class ListTagsRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

/** `repo.tag.get` / `repo.tag.delete`: one tag by name. */
export class TagNameRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) tag: string;
}

/** `repo.tag.create`. */
export class CreateTagRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateTagBody) body: CreateTagBody;
}

/** `repo.git.annotated-tag` / `repo.git.blob`: one object by id. */
export class GitObjectRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) sha: string;
}

/** `repo.git.blob`: a blob; its content is inline up to `maxBlobSize` bytes. */
export class GetBlobRequest extends GitObjectRequest {
  @IsInt() @Min(0) maxBlobSize: number;
}

/** `repo.git.tree`. */
export class GetTreeRequest extends GitObjectRequest {
  @IsOptional() @IsBoolean() recursive?: boolean;
  @IsInt() page: number;
  @IsInt() @Min(1) perPage: number;
}

/** `repo.git.refs`: refs under `refs/<filter>` (all refs when empty). */
export class ListGitRefsRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) filter: string;
}
