import { Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsInt, IsOptional, IsString, Matches, MaxLength, Min, ValidateNested,
} from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import { ActionsScopedRequest } from './actions-scope.dto.js';

/** The longest runner label (act_runner writes `name:scheme://image`, e.g. `ubuntu-latest:docker://node:20`). */
export const RUNNER_LABEL_MAX_LENGTH = 255;
/** The most labels one runner carries (GitHub's limit for its label routes). */
export const RUNNER_LABELS_MAX = 100;
/** A label: printable, no whitespace and no comma (act_runner's `--labels` list is comma-separated). */
export const RUNNER_LABEL_PATTERN = /^[^\s,]+$/;

/** One label of a runner (Gitea's `ActionRunnerLabel`): `id` is its position, `type` always `custom`. */
export interface ActionRunnerLabelDto {
  id: number;
  name: string;
  type: 'custom';
}

/**
 * Gitea's `ActionRunner`, plus Cairn's `last_online` (RFC 3339, null when the runner never reported). `status` is
 * `online` while the runner reported within `[actions] RUNNER_OFFLINE_TIME`; `busy` while it is online and reported
 * work on a task (UpdateTask/UpdateLog) within `[actions] RUNNER_IDLE_TIME` — Gitea's "active".
 */
export interface ActionRunnerDto {
  id: number;
  name: string;
  status: 'online' | 'offline';
  busy: boolean;
  ephemeral: boolean;
  labels: ActionRunnerLabelDto[];
  last_online: string | null;
}

/** Gitea's `ActionRunnersResponse` (GitHub's list shape): no `X-Total-Count` header. */
export interface ActionRunnersResponseDto {
  runners: ActionRunnerDto[];
  total_count: number;
}

/** GitHub's label list (`GET|POST|PUT|DELETE …/runners/{runner_id}/labels`). */
export interface RunnerLabelsDto {
  total_count: number;
  labels: ActionRunnerLabelDto[];
}

/** `{"token": …}`: the scope's registration token (200, as Gitea; no `expires_at`). */
export interface RegistrationTokenDto {
  token: string;
}

/** `runners.runner.list`. */
export class RunnerListRequest extends ActionsScopedRequest {
  @IsOptional() @ValidateNested() @Type(() => ListQuery) query?: ListQuery;
}

/** `runners.runner.get` / `delete` / `labels.list` / `labels.clear`: one runner by id (0 names no runner: 404). */
export class RunnerRequest extends ActionsScopedRequest {
  @IsInt() @Min(0) runnerId: number;
}

/** `POST|PUT …/runners/{runner_id}/labels` body (GitHub's): the labels to add or to set. */
export class RunnerLabelsBody {
  @IsArray()
  @ArrayMaxSize(RUNNER_LABELS_MAX)
  @IsString({ each: true })
  @MaxLength(RUNNER_LABEL_MAX_LENGTH, { each: true })
  @Matches(RUNNER_LABEL_PATTERN, { each: true, message: 'each label must be non-empty, without spaces or commas' })
  labels: string[];
}

/** `runners.runner.labels.add` / `labels.set`. */
export class RunnerLabelsChangeRequest extends RunnerRequest {
  @ValidateNested() @Type(() => RunnerLabelsBody) body: RunnerLabelsBody;
}

/** `runners.runner.labels.remove`: one label by name. */
export class RunnerLabelRemoveRequest extends RunnerRequest {
  @IsString() @MaxLength(RUNNER_LABEL_MAX_LENGTH) name: string;
}

/** `runners.token.get`: the active registration token of the scope (created when there is none); `reset` rotates. */
export class RegistrationTokenRequest extends ActionsScopedRequest {
  @IsOptional() @IsBoolean() reset?: boolean;
}
