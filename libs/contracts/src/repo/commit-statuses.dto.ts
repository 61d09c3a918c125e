import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import type { UserDto } from '../identity/user.dto.js';
import type { PushedCommit, RepoEventRepository } from './repo-events.js';
import type { RepositoryDto } from './repository.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';

export const COMMIT_STATUS_STATES = ['pending', 'success', 'error', 'failure', 'warning', 'skipped'] as const;
export type CommitStatusState = (typeof COMMIT_STATUS_STATES)[number];

/** Gitea filters by these five and ignores any other value. */
export const COMMIT_STATUS_STATE_FILTERS = ['pending', 'success', 'error', 'failure', 'warning'] as const;

export const COMMIT_STATUS_SORTS = ['oldest', 'recentupdate', 'leastupdate', 'leastindex', 'highestindex'] as const;
export type CommitStatusSort = (typeof COMMIT_STATUS_SORTS)[number];

/** Gitea's `CommitStatusStates.Combine` (after GitHub): error/failure fail, success/warning/skipped succeed, else pending. */
export function combineCommitStatusStates(states: readonly CommitStatusState[]): CommitStatusState {
  if (states.some((s) => s === 'error' || s === 'failure')) return 'failure';
  if (states.length > 0 && states.every((s) => s === 'success' || s === 'warning' || s === 'skipped')) return 'success';
  return 'pending';
}

export class CreateStatusBody {
  @IsIn(COMMIT_STATUS_STATES, { message: `state must be one of: ${COMMIT_STATUS_STATES.join(', ')}` })
  state: CommitStatusState;
  @IsOptional() @IsString() @MaxLength(4096) target_url?: string;
  @IsOptional() @IsString() @MaxLength(65535) description?: string;
  @IsOptional() @IsString() @MaxLength(255) context?: string;
}

export class ListStatusesQuery extends ListQuery {
  @IsOptional() @IsString() @MaxLength(64) sort?: string;
  @IsOptional() @IsString() @MaxLength(64) state?: string;
}

export interface CommitStatusDto {
  /** Gitea's `index`: the status's number among the commit's statuses. */
  id: number;
  status: CommitStatusState;
  target_url: string;
  description: string;
  url: string;
  context: string;
  creator: UserDto | null;
  created_at: string;
  updated_at: string;
}

/** `state` is `""` (and the rest empty) when the commit has no status, as Gitea. */
export interface CombinedStatusDto {
  state: CommitStatusState | '';
  sha: string;
  total_count: number;
  statuses: CommitStatusDto[] | null;
  repository: RepositoryDto | null;
  commit_url: string;
  url: string;
}

export class CreateCommitStatusRequest extends RepoScopedRequest {
  @IsString() @MaxLength(255) sha: string;
  @ValidateNested() @Type(() => CreateStatusBody) body: CreateStatusBody;
}

export class ListCommitStatusesRequest extends RepoScopedRequest {
  @IsString() @MaxLength(255) ref: string;
  @IsOptional() @IsBoolean() refMustExist?: boolean;
  @ValidateNested() @Type(() => ListStatusesQuery) query: ListStatusesQuery;
}

export class GetCombinedStatusRequest extends RepoScopedRequest {
  @IsString() @MaxLength(255) ref: string;
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

export interface CombinedStatusReply {
  status: CombinedStatusDto;
  total: number;
}

/** `id` is the database id, as Gitea's payload has it (the API's `id` is the per-commit index). */
export interface CommitStatusEventData {
  id: number;
  sha: string;
  status: CommitStatusDto;
  commit: PushedCommit | null;
  repository: RepoEventRepository;
  sender: UserDto | null;
}
