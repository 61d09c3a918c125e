import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import type { UserDto } from '../identity/user.dto.js';
import type { PayloadUserDto } from './branches.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';

/** Gitea's `CommitUser`: name, e-mail and date (RFC 3339) of a commit's author or committer. */
export interface CommitUserDto {
  name: string;
  email: string;
  date: string;
}

/** Gitea's `CommitMeta`. */
export interface CommitMetaDto {
  url: string;
  sha: string;
  created: string;
}

/**
 * How far a verified signature is trusted in its repository (Gitea's `CalculateTrustStatus`); empty when the commit
 * is not verified.
 */
export type CommitTrustStatus = 'trusted' | 'untrusted' | 'unmatched' | '';

/** Gitea's `PayloadCommitVerification`. */
export interface PayloadCommitVerificationDto {
  verified: boolean;
  /** Gitea's reason: an i18n key such as `gpg.error.not_signed_commit`, or `<signer> / <key id or fingerprint>`. */
  reason: string;
  /** The armored signature (empty when unsigned). */
  signature: string;
  signer: PayloadUserDto | null;
  /** The signed payload: the commit object without its signature. */
  payload: string;
  /** Cairn addition: the trust status under the repository's trust model (Gitea shows it only in its web UI). */
  trust_status?: CommitTrustStatus;
}

/** Gitea's `RepoCommit`. */
export interface RepoCommitDto {
  url: string;
  author: CommitUserDto;
  committer: CommitUserDto;
  message: string;
  tree: CommitMetaDto;
  verification: PayloadCommitVerificationDto | null;
}

/** Gitea's `CommitAffectedFiles`. */
export interface CommitAffectedFileDto {
  filename: string;
  status: 'added' | 'removed' | 'modified';
}

/** Gitea's `CommitStats`. */
export interface CommitStatsDto {
  total: number;
  additions: number;
  deletions: number;
}

/** Gitea's `Commit` (list and single-commit routes). */
export interface CommitDto {
  url: string;
  sha: string;
  created: string;
  html_url: string;
  commit: RepoCommitDto;
  /** The Gitea user whose e-mail matches the author's, else null. */
  author: UserDto | null;
  committer: UserDto | null;
  parents: CommitMetaDto[];
  files: CommitAffectedFileDto[] | null;
  stats: CommitStatsDto | null;
}

/** The verification object of an unsigned commit: Gitea's "not signed". */
export const NOT_SIGNED_VERIFICATION: Readonly<PayloadCommitVerificationDto> = Object.freeze({
  verified: false,
  reason: 'gpg.error.not_signed_commit',
  signature: '',
  signer: null,
  payload: '',
  trust_status: '',
});

/**
 * Gitea's query flags (`stat`, `verification`, `files`): absent or empty means the default; otherwise Go's
 * `strconv.ParseBool` spellings, and anything unparsable is false (as `ctx.FormBool`).
 */
export function parseGiteaBool(raw: string | undefined | null, dflt = true): boolean {
  if (raw === undefined || raw === null || raw === '') return dflt;
  return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(raw);
}

/** `GET /repos/{o}/{r}/commits` query (Gitea's names). `since`/`until` are checked by repo-service (422). */
export class ListCommitsQuery extends ListQuery {
  /** Branch, tag or commit to start from (default branch if absent). */
  @IsOptional() @IsString() @MaxLength(1024) sha?: string;
  /** Only commits touching this file or directory. */
  @IsOptional() @IsString() @MaxLength(4096) path?: string;
  /** Exclude commits reachable from this ref. */
  @IsOptional() @IsString() @MaxLength(1024) not?: string;
  /** RFC 3339: only commits whose committer date is at or after this instant. */
  @IsOptional() @IsString() @MaxLength(64) since?: string;
  /** RFC 3339: only commits whose committer date is at or before this instant. */
  @IsOptional() @IsString() @MaxLength(64) until?: string;
  @IsOptional() @IsString() @MaxLength(16) stat?: string;
  @IsOptional() @IsString() @MaxLength(16) verification?: string;
  @IsOptional() @IsString() @MaxLength(16) files?: string;
}

/** `GET /repos/{o}/{r}/git/commits/{sha}` query. */
export class CommitFlagsQuery {
  @IsOptional() @IsString() @MaxLength(16) stat?: string;
  @IsOptional() @IsString() @MaxLength(16) verification?: string;
  @IsOptional() @IsString() @MaxLength(16) files?: string;
}

/** What to compute per commit (each defaults to true in Gitea). */
export class CommitOptions {
  @IsBoolean() stat: boolean;
  @IsBoolean() verification: boolean;
  @IsBoolean() files: boolean;
}

/** The commit-list filters as sent to repo-service (raw strings: the service validates them). */
export class CommitListFilter {
  @IsOptional() @IsString() @MaxLength(1024) sha?: string;
  @IsOptional() @IsString() @MaxLength(4096) path?: string;
  @IsOptional() @IsString() @MaxLength(1024) not?: string;
  @IsOptional() @IsString() @MaxLength(64) since?: string;
  @IsOptional() @IsString() @MaxLength(64) until?: string;
  /** As the API gave them: 0 or less means the default (Gitea's SDK sends `limit=0`); repo-service applies it. */
  @IsOptional() @IsInt() page?: number;
  @IsOptional() @IsInt() limit?: number;
}

/** `repo.commit.list`. */
export class ListCommitsRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CommitListFilter) filter: CommitListFilter;
  @ValidateNested() @Type(() => CommitOptions) options: CommitOptions;
}

/**
 * `repo.commit.list` reply: one page, the total of commits matching every filter (since/until included), and the
 * page and page size actually used (the size is `[git] COMMITS_RANGE_SIZE` when a path is given).
 */
export interface CommitListReply {
  items: CommitDto[];
  total: number;
  page: number;
  pageSize: number;
}

/** `repo.commit.get`: one commit by ref or sha. */
export class GetCommitRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) sha: string;
  @ValidateNested() @Type(() => CommitOptions) options: CommitOptions;
}

/**
 * `repo.compare`: `GET /repos/{o}/{r}/compare/{basehead}` — the path's `basehead` as given (repo-service splits it
 * into base and head, as Gitea's `CompareDiff`), and what to compute per commit.
 */
export class CompareRequest extends RepoScopedRequest {
  @IsString() @MaxLength(2048) basehead: string;
  @ValidateNested() @Type(() => CommitOptions) options: CommitOptions;
}

/** Gitea's `Compare`: the commits of head that base lacks (newest first) and how many there are. */
export interface CompareDto {
  total_commits: number;
  commits: CommitDto[];
}

/** The largest patch a `repo.commit.diff` reply may carry (it travels in one bus message). */
export const COMMIT_DIFF_MAX_BYTES = 512 * 1024;

/**
 * `repo.commit.diff`: one commit (ref or sha) and the most patch bytes the caller will show. With `base` (a ref or
 * sha), the changes of `sha` since its merge base with `base` instead (Gitea's `base...head`: a compare page, a pull
 * request's files).
 */
export class GetCommitDiffRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) sha: string;
  @IsInt() @Min(1) @Max(COMMIT_DIFF_MAX_BYTES) maxBytes: number;
  @IsOptional() @IsString() @MaxLength(1024) base?: string;
}

/**
 * `repo.commit.diff` reply: the resolved commit id and its patch (`git diff-tree -p`), or `tooLarge` and no patch.
 * `from` is the commit the patch starts at: the first parent (null for a root commit), or the merge base with `base`.
 */
export interface CommitDiffReply {
  sha: string;
  from: string | null;
  patch: string;
  tooLarge: boolean;
}

