import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import type { UserDto } from '../identity/user.dto.js';
import type { PushedCommit, RepoEventRepository } from './repo-events.js';
import type { RepositoryDto } from './repository.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';

/** A commit status's state (Gitea's `commitstatus.CommitStatusState`). */
export const COMMIT_STATUS_STATES = ['pending', 'success', 'error', 'failure', 'warning', 'skipped'] as const;
export type CommitStatusState = (typeof COMMIT_STATUS_STATES)[number];

/** The `state` filter of the list routes: Gitea filters by these five and ignores any other value. */
export const COMMIT_STATUS_STATE_FILTERS = ['pending', 'success', 'error', 'failure', 'warning'] as const;

/** The `sort` of the list routes (Gitea's; anything else is newest first). */
export const COMMIT_STATUS_SORTS = ['oldest', 'recentupdate', 'leastupdate', 'leastindex', 'highestindex'] as const;
export type CommitStatusSort = (typeof COMMIT_STATUS_SORTS)[number];

/**
 * The combined state of the latest status of each context (Gitea's `CommitStatusStates.Combine`, which follows
 * GitHub): `failure` if any is error or failure, `success` if every one is success, warning or skipped, otherwise
 * `pending` (a pending context, or none at all).
 */
export function combineCommitStatusStates(states: readonly CommitStatusState[]): CommitStatusState {
  if (states.some((s) => s === 'error' || s === 'failure')) return 'failure';
  if (states.length > 0 && states.every((s) => s === 'success' || s === 'warning' || s === 'skipped')) return 'success';
  return 'pending';
}

/** `POST /repos/{owner}/{repo}/statuses/{sha}` body (Gitea's `CreateStatusOption`). */
export class CreateStatusBody {
  @IsIn(COMMIT_STATUS_STATES, { message: `state must be one of: ${COMMIT_STATUS_STATES.join(', ')}` })
  state: CommitStatusState;
  @IsOptional() @IsString() @MaxLength(4096) target_url?: string;
  @IsOptional() @IsString() @MaxLength(65535) description?: string;
  @IsOptional() @IsString() @MaxLength(255) context?: string;
}

/** `sort`, `state`, `page`, `limit` of the status list routes. */
export class ListStatusesQuery extends ListQuery {
  /** Any other value is newest first (as Gitea). */
  @IsOptional() @IsString() @MaxLength(64) sort?: string;
  /** Any other value lists every state (as Gitea). */
  @IsOptional() @IsString() @MaxLength(64) state?: string;
}

/** Gitea's `CommitStatus` JSON. */
export interface CommitStatusDto {
  /** The status's number among the commit's statuses (Gitea's `index`). */
  id: number;
  status: CommitStatusState;
  target_url: string;
  description: string;
  /** `<repo api url>/statuses/<sha>`. */
  url: string;
  context: string;
  creator: UserDto | null;
  created_at: string;
  updated_at: string;
}

/** Gitea's `CombinedStatus` JSON. `state` is `""` (and the rest empty) when the commit has no status, as Gitea. */
export interface CombinedStatusDto {
  state: CommitStatusState | '';
  sha: string;
  total_count: number;
  statuses: CommitStatusDto[] | null;
  repository: RepositoryDto | null;
  commit_url: string;
  url: string;
}

/** `repo.commit-status.create`: replies `CommitStatusDto`. */
export class CreateCommitStatusRequest extends RepoScopedRequest {
  @IsString() @MaxLength(255) sha: string;
  @ValidateNested() @Type(() => CreateStatusBody) body: CreateStatusBody;
}

/** `repo.commit-status.list`: `ref` is a commit id (`/statuses/{sha}`) or a branch, tag or commit id (`/commits/{ref}/statuses`). */
export class ListCommitStatusesRequest extends RepoScopedRequest {
  @IsString() @MaxLength(255) ref: string;
  /** `/commits/{ref}/statuses`: a ref that names no commit is 404 (`/statuses/{sha}` takes any sha as given). */
  @IsOptional() @IsBoolean() refMustExist?: boolean;
  @ValidateNested() @Type(() => ListStatusesQuery) query: ListStatusesQuery;
}

/** `repo.commit-status.combined`: a ref that names no commit is 404. */
export class GetCombinedStatusRequest extends RepoScopedRequest {
  @IsString() @MaxLength(255) ref: string;
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

/** `repo.commit-status.combined` reply: the JSON, and the number of contexts (`X-Total-Count`). */
export interface CombinedStatusReply {
  status: CombinedStatusDto;
  total: number;
}

/**
 * `repo.evt.commit-status.created`: what Gitea's `CommitStatusPayload` (webhook event `status`) needs. `id` is the
 * status's database id, as Gitea's payload has it (the API's `id` is the per-commit index).
 */
export interface CommitStatusEventData {
  id: number;
  sha: string;
  status: CommitStatusDto;
  /** The commit, as Gitea's `PayloadCommit` (null if it could not be read). */
  commit: PushedCommit | null;
  repository: RepoEventRepository;
  sender: UserDto | null;
}
