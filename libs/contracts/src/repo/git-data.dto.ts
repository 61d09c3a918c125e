import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ListQuery, MAX_INT32 } from '../common/pagination.js';
import type { CommitMetaDto, PayloadCommitVerificationDto } from './commits.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';

export interface TagDto {
  name: string;
  message: string;
  id: string;
  commit: CommitMetaDto;
  zipball_url: string;
  tarball_url: string;
}

export interface TaggerDto {
  name: string;
  email: string;
  date: string;
}

export interface AnnotatedTagDto {
  tag: string;
  sha: string;
  url: string;
  message: string;
  tagger: TaggerDto | null;
  object: { type: string; url: string; sha: string };
  verification: PayloadCommitVerificationDto | null;
}

export interface GitEntryDto {
  path: string;
  mode: string;
  type: string;
  size: number;
  sha: string;
  url: string;
}

export interface GitTreeResponseDto {
  sha: string;
  url: string;
  tree: GitEntryDto[];
  truncated: boolean;
  page: number;
  total_count: number;
}

/** `content`/`encoding` are null for a blob larger than the inline limit. */
export interface GitBlobResponseDto {
  content: string | null;
  encoding: string | null;
  url: string;
  sha: string;
  size: number;
}

/** `deferred`: too large for a bus message; the gateway reads it over internal HTTP (`?blob=<id>`). */
export interface GetBlobReply {
  blob: GitBlobResponseDto;
  deferred?: boolean;
}

export interface ReferenceDto {
  ref: string;
  url: string;
  object: { type: string; sha: string; url: string };
}

export class CreateTagBody {
  @IsString() @MaxLength(255) tag_name: string;
  @IsOptional() @IsString() @MaxLength(65536) message?: string;
  @IsOptional() @IsString() @MaxLength(1024) target?: string;
}

export class GitTreeQuery {
  @IsOptional() @IsString() @MaxLength(8) recursive?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(-MAX_INT32) @Max(MAX_INT32) page?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(-MAX_INT32) @Max(MAX_INT32) per_page?: number;
}

export class ListTagsRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

export class TagNameRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) tag: string;
}

export class CreateTagRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateTagBody) body: CreateTagBody;
}

export class GitObjectRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) sha: string;
}

export class GetBlobRequest extends GitObjectRequest {
  @IsInt() @Min(0) maxBlobSize: number;
}

export class GetTreeRequest extends GitObjectRequest {
  @IsOptional() @IsBoolean() recursive?: boolean;
  @IsInt() page: number;
  @IsInt() @Min(1) perPage: number;
}

export class ListGitRefsRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) filter: string;
}
