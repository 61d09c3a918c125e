import { Type } from 'class-transformer';
import {
  ArrayNotEmpty, IsArray, IsBoolean, IsInt, IsOptional, IsString, MaxLength, Min, ValidateNested,
} from 'class-validator';
import { RepoScopedRequest } from './repo-access.dto.js';

export interface FileLinksDto {
  self: string | null;
  git: string | null;
  html: string | null;
}

export type ContentsEntryType = 'file' | 'dir' | 'symlink' | 'submodule';

export interface ContentsResponseDto {
  name: string;
  path: string;
  sha: string;
  last_commit_sha: string | null;
  last_committer_date: string | null;
  last_author_date: string | null;
  type: ContentsEntryType;
  size: number;
  encoding: string | null;
  content: string | null;
  target: string | null;
  url: string | null;
  html_url: string | null;
  git_url: string | null;
  download_url: string | null;
  submodule_git_url: string | null;
  _links: FileLinksDto;
}

export class RefQuery {
  @IsOptional() @IsString() @MaxLength(1024) ref?: string;
}

export class FileContentsQuery extends RefQuery {
  @IsOptional() @IsString() body?: string;
}

export class GetFilesBody {
  /** A missing or empty list is 422, as Gitea's `binding:"Required"`. */
  @IsArray() @ArrayNotEmpty() @IsString({ each: true }) files: string[];
}

export class FileContentsLimits {
  @IsInt() @Min(1) pagingNum: number;
  @IsInt() @Min(0) maxBlobSize: number;
  @IsInt() @Min(0) maxResponseSize: number;
}

export class GetContentsRequest extends RepoScopedRequest {
  @IsString() @MaxLength(4096) path: string;
  @IsOptional() @IsString() @MaxLength(1024) ref?: string;
  @IsInt() @Min(0) maxBlobSize: number;
  @IsOptional() @IsBoolean() withCommits?: boolean;
}

export interface CommitSummaryDto {
  sha: string;
  title: string;
  authorName: string;
  authorLogin: string | null;
  authorDate: string;
  committerDate: string;
}

/** `deferred`: the content was too large for a bus message; the gateway fetches it over repo-service's internal HTTP. */
export interface GetContentsReply {
  file?: ContentsResponseDto;
  dir?: ContentsResponseDto[];
  commit: string;
  deferred?: boolean;
  commits?: CommitSummaryDto[];
  historyCount?: number;
  latestCommit?: string;
}

export class GetFileContentsRequest extends RepoScopedRequest {
  @IsOptional() @IsString() @MaxLength(1024) ref?: string;
  @IsArray() @IsString({ each: true }) files: string[];
  @ValidateNested() @Type(() => FileContentsLimits) limits: FileContentsLimits;
}

export interface GetFileContentsReply {
  items: (ContentsResponseDto | null)[];
  commit: string;
  deferred: number[];
}

export class GetRawRequest extends RepoScopedRequest {
  /** Without `ref`, a leading branch, tag or commit id in the path is recognised as Gitea does. */
  @IsString() @MaxLength(4096) path: string;
  @IsOptional() @IsString() @MaxLength(1024) ref?: string;
  @IsInt() @Min(0) maxInlineBytes: number;
}

export interface GetRawReply {
  commit: string;
  path: string;
  name: string;
  sha: string;
  size: number;
  type: 'file' | 'symlink';
  contentBase64: string | null;
}

export const BLAME_MAX_BYTES = 384 * 1024;

export class BlameRequest extends RepoScopedRequest {
  @IsString() @MaxLength(4096) path: string;
  @IsOptional() @IsString() @MaxLength(1024) ref?: string;
}

export interface BlameCommitDto {
  sha: string;
  summary: string;
  authorName: string;
  authorEmail: string;
  authorDate: string;
}

export interface BlameRangeDto {
  sha: string;
  start: number;
  count: number;
}

/** Lines are LF-split without their ends; `tooLarge` past {@link BLAME_MAX_BYTES}; `binary` for a file with NUL bytes. */
export interface BlameReply {
  commit: string;
  path: string;
  size: number;
  lines: string[];
  ranges: BlameRangeDto[];
  commits: BlameCommitDto[];
  tooLarge: boolean;
  binary: boolean;
}
