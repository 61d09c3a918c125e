import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import type { UserDto } from '../identity/user.dto.js';
import type { PayloadUserDto } from './branches.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';

export interface CommitUserDto {
  name: string;
  email: string;
  date: string;
}

export interface CommitMetaDto {
  url: string;
  sha: string;
  created: string;
}

/** Gitea's `CalculateTrustStatus`; empty when the commit is not verified. */
export type CommitTrustStatus = 'trusted' | 'untrusted' | 'unmatched' | '';

export interface PayloadCommitVerificationDto {
  verified: boolean;
  /** An i18n key such as `gpg.error.not_signed_commit`, or `<signer> / <key id or fingerprint>` (as Gitea). */
  reason: string;
  signature: string;
  signer: PayloadUserDto | null;
  payload: string;
  trust_status?: CommitTrustStatus;
}

export interface RepoCommitDto {
  url: string;
  author: CommitUserDto;
  committer: CommitUserDto;
  message: string;
  tree: CommitMetaDto;
  verification: PayloadCommitVerificationDto | null;
}

export interface CommitAffectedFileDto {
  filename: string;
  status: 'added' | 'removed' | 'modified';
}

export interface CommitStatsDto {
  total: number;
  additions: number;
  deletions: number;
}

export interface CommitDto {
  url: string;
  sha: string;
  created: string;
  html_url: string;
  commit: RepoCommitDto;
  author: UserDto | null;
  committer: UserDto | null;
  parents: CommitMetaDto[];
  files: CommitAffectedFileDto[] | null;
  stats: CommitStatsDto | null;
}

export const NOT_SIGNED_VERIFICATION: Readonly<PayloadCommitVerificationDto> = Object.freeze({
  verified: false,
  reason: 'gpg.error.not_signed_commit',
  signature: '',
  signer: null,
  payload: '',
  trust_status: '',
});

/** Absent or empty means the default; else Go's `strconv.ParseBool`, anything unparsable false (as `ctx.FormBool`). */
export function parseGiteaBool(raw: string | undefined | null, dflt = true): boolean {
  if (raw === undefined || raw === null || raw === '') return dflt;
  return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(raw);
}

export class ListCommitsQuery extends ListQuery {
  @IsOptional() @IsString() @MaxLength(1024) sha?: string;
  @IsOptional() @IsString() @MaxLength(4096) path?: string;
  @IsOptional() @IsString() @MaxLength(1024) not?: string;
  @IsOptional() @IsString() @MaxLength(64) since?: string;
  @IsOptional() @IsString() @MaxLength(64) until?: string;
  @IsOptional() @IsString() @MaxLength(16) stat?: string;
  @IsOptional() @IsString() @MaxLength(16) verification?: string;
  @IsOptional() @IsString() @MaxLength(16) files?: string;
}

export class CommitFlagsQuery {
  @IsOptional() @IsString() @MaxLength(16) stat?: string;
  @IsOptional() @IsString() @MaxLength(16) verification?: string;
  @IsOptional() @IsString() @MaxLength(16) files?: string;
}

export class CommitOptions {
  @IsBoolean() stat: boolean;
  @IsBoolean() verification: boolean;
  @IsBoolean() files: boolean;
}

export class CommitListFilter {
  @IsOptional() @IsString() @MaxLength(1024) sha?: string;
  @IsOptional() @IsString() @MaxLength(4096) path?: string;
  @IsOptional() @IsString() @MaxLength(1024) not?: string;
  @IsOptional() @IsString() @MaxLength(64) since?: string;
  @IsOptional() @IsString() @MaxLength(64) until?: string;
  /** As the API gave them: Gitea's SDK sends `limit=0`; repo-service applies the default. */
  @IsOptional() @IsInt() page?: number;
  @IsOptional() @IsInt() limit?: number;
}

export class ListCommitsRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CommitListFilter) filter: CommitListFilter;
  @ValidateNested() @Type(() => CommitOptions) options: CommitOptions;
}

/** The total matches every filter; the page size is `[git] COMMITS_RANGE_SIZE` when a path is given. */
export interface CommitListReply {
  items: CommitDto[];
  total: number;
  page: number;
  pageSize: number;
}

export class GetCommitRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) sha: string;
  @ValidateNested() @Type(() => CommitOptions) options: CommitOptions;
}

/** `basehead` as given: repo-service splits it as Gitea's `CompareDiff`. */
export class CompareRequest extends RepoScopedRequest {
  @IsString() @MaxLength(2048) basehead: string;
  @ValidateNested() @Type(() => CommitOptions) options: CommitOptions;
}

export interface CompareDto {
  total_commits: number;
  commits: CommitDto[];
}

export const COMMIT_DIFF_MAX_BYTES = 512 * 1024;

/** With `base`: the changes since the merge base with `base` (Gitea's `base...head`: compare page, a pull's files). */
export class GetCommitDiffRequest extends RepoScopedRequest {
  @IsString() @MaxLength(1024) sha: string;
  @IsInt() @Min(1) @Max(COMMIT_DIFF_MAX_BYTES) maxBytes: number;
  @IsOptional() @IsString() @MaxLength(1024) base?: string;
}

/** `from`: the first parent (null for a root commit), or the merge base with `base`. */
export interface CommitDiffReply {
  sha: string;
  from: string | null;
  patch: string;
  tooLarge: boolean;
}

