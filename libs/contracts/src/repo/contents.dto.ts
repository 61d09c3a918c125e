import { Type } from 'class-transformer';
import {
  ArrayNotEmpty, IsArray, IsBoolean, IsInt, IsOptional, IsString, MaxLength, Min, ValidateNested,
} from 'class-validator';
import { RepoScopedRequest } from './repo-access.dto.js';

/** Gitea's `FileLinksResponse` (`_links` of a contents entry). */
export interface FileLinksDto {
  self: string | null;
  git: string | null;
  html: string | null;
}

/** Kinds of tree entries the contents API reports. */
export type ContentsEntryType = 'file' | 'dir' | 'symlink' | 'submodule';

/** Gitea's `ContentsResponse`: one tree entry (file, dir, symlink or submodule), with content for single files. */
export interface ContentsResponseDto {
  name: string;
  path: string;
  /** Object id of the entry (blob, tree, or the submodule's commit). */
  sha: string;
  last_commit_sha: string | null;
  last_committer_date: string | null;
  last_author_date: string | null;
  type: ContentsEntryType;
  size: number;
  /** `base64` for files whose content is included, otherwise null. */
  encoding: string | null;
  content: string | null;
  /** The link text of a symlink (first 1024 bytes). */
  target: string | null;
  url: string | null;
  html_url: string | null;
  git_url: string | null;
  download_url: string | null;
  submodule_git_url: string | null;
  _links: FileLinksDto;
}

/** `?ref=` of the contents, raw and file-contents routes: a branch, tag or commit id (default branch if absent). */
export class RefQuery {
  /** Branch, tag or commit id. */
  @IsOptional() @IsString() @MaxLength(1024) ref?: string;
}

/** `GET /repos/{o}/{r}/file-contents?ref=&body=` query. The body is checked by the route (400 when unparsable). */
export class FileContentsQuery extends RefQuery {
  /** URL-encoded JSON of {@link GetFilesBody}. */
  @IsOptional() @IsString() body?: string;
}

/** Gitea's `GetFilesOptions`: `POST /repos/{o}/{r}/file-contents` body. */
export class GetFilesBody {
  /** Tree paths, answered in this order (a missing or empty list is 422, as Gitea's `binding:"Required"`). */
  @IsArray() @ArrayNotEmpty() @IsString({ each: true }) files: string[];
}

/** The three `[api]` limits of the batch file-contents API, sent by the gateway (which owns those settings). */
export class FileContentsLimits {
  /** `[api] DEFAULT_PAGING_NUM`: at most this many entries (nulls included). */
  @IsInt() @Min(1) pagingNum: number;
  /** `[api] DEFAULT_MAX_BLOB_SIZE`: larger blobs come without content. */
  @IsInt() @Min(0) maxBlobSize: number;
  /** `[api] DEFAULT_MAX_RESPONSE_SIZE`: stop before the base64 total would pass this. */
  @IsInt() @Min(0) maxResponseSize: number;
}

/** `repo.contents.get`: one entry (a file with content) or a directory listing. */
export class GetContentsRequest extends RepoScopedRequest {
  /** Tree path; empty for the root directory. */
  @IsString() @MaxLength(4096) path: string;
  @IsOptional() @IsString() @MaxLength(1024) ref?: string;
  /** `[api] DEFAULT_MAX_BLOB_SIZE`: a larger file comes without content. */
  @IsInt() @Min(0) maxBlobSize: number;
  /**
   * For a directory, also the summaries of its entries' last commits and the number of commits in the folder's
   * history (the web tree): {@link GetContentsReply.commits}, {@link GetContentsReply.historyCount}.
   */
  @IsOptional() @IsBoolean() withCommits?: boolean;
}

/** A commit as the web tree shows it beside an entry. */
export interface CommitSummaryDto {
  sha: string;
  title: string;
  authorName: string;
  /** The login of the user owning the author e-mail, or null. */
  authorLogin: string | null;
  authorDate: string;
  /** Committer date, RFC 3339 (which commit is newest). */
  committerDate: string;
}

/**
 * `repo.contents.get` reply: `file` for a file, symlink or submodule, `dir` for a directory. When `deferred` is
 * set, the file's content was too large for a bus message: the gateway fetches the bytes of `path` at `commit`
 * through repo-service's internal HTTP endpoint and fills `content` in.
 */
export interface GetContentsReply {
  file?: ContentsResponseDto;
  dir?: ContentsResponseDto[];
  /** The commit the ref resolved to. */
  commit: string;
  deferred?: boolean;
  /** With `withCommits`, for a directory: each entry's last commit once (the listing names them by id). */
  commits?: CommitSummaryDto[];
  /** With `withCommits`, for a directory: the number of commits reachable from `commit` touching it. */
  historyCount?: number;
  /** With `withCommits`, for a directory: the newest commit touching it (the resolved commit itself at the root). */
  latestCommit?: string;
}

/** `repo.file-contents.get`: Gitea's batch file contents. */
export class GetFileContentsRequest extends RepoScopedRequest {
  @IsOptional() @IsString() @MaxLength(1024) ref?: string;
  /** Tree paths (invalid ones answer `null`, never an error). */
  @IsArray() @IsString({ each: true }) files: string[];
  @ValidateNested() @Type(() => FileContentsLimits) limits: FileContentsLimits;
}

/**
 * `repo.file-contents.get` reply: the entries in request order (`null` for paths that cannot be retrieved),
 * already cut at the paging and response-size limits. `deferred` lists indexes whose content was too large for a
 * bus message (see {@link GetContentsReply.deferred}).
 */
export interface GetFileContentsReply {
  items: (ContentsResponseDto | null)[];
  commit: string;
  deferred: number[];
}

/** `repo.raw.get`: the bytes of one file (Gitea's `/raw/{filepath}`). */
export class GetRawRequest extends RepoScopedRequest {
  /** Tree path; without `ref`, a leading branch, tag or commit id in the path is recognised as Gitea does. */
  @IsString() @MaxLength(4096) path: string;
  @IsOptional() @IsString() @MaxLength(1024) ref?: string;
  /** Larger blobs come without bytes (`contentBase64: null`): fetch them over the internal HTTP endpoint. */
  @IsInt() @Min(0) maxInlineBytes: number;
}

/** `repo.raw.get` reply. */
export interface GetRawReply {
  /** The resolved commit and path (use them to fetch large blobs over internal HTTP). */
  commit: string;
  path: string;
  name: string;
  /** Blob id (a stable ETag). */
  sha: string;
  size: number;
  type: 'file' | 'symlink';
  contentBase64: string | null;
}

/** The largest file `repo.blame` annotates (bytes of the blob; larger ones are `tooLarge`). */
export const BLAME_MAX_BYTES = 384 * 1024;

/** `repo.blame`: who last changed each line of a file at a ref (`git blame --porcelain`). */
export class BlameRequest extends RepoScopedRequest {
  /** Tree path of a file. */
  @IsString() @MaxLength(4096) path: string;
  /** Branch, tag or commit id (default branch if absent). */
  @IsOptional() @IsString() @MaxLength(1024) ref?: string;
}

/** A commit that last changed some lines of a blamed file. */
export interface BlameCommitDto {
  sha: string;
  summary: string;
  authorName: string;
  authorEmail: string;
  authorDate: string;
}

/** Consecutive lines (1-based `start`, `count` of them) last changed by one commit. */
export interface BlameRangeDto {
  sha: string;
  start: number;
  count: number;
}

/**
 * `repo.blame` reply: the resolved commit, the file's lines (LF-split, without their line ends), ranges in line order
 * covering every line, and each commit once. `tooLarge` (no lines, no ranges) past {@link BLAME_MAX_BYTES}; `binary`
 * for a file with NUL bytes.
 */
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
