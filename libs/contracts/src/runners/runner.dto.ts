import { Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsInt, IsOptional, IsString, Matches, MaxLength, Min, ValidateNested,
} from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import { ActionsScopedRequest } from './actions-scope.dto.js';

/** act_runner writes `name:scheme://image`, e.g. `ubuntu-latest:docker://node:20`. */
export const RUNNER_LABEL_MAX_LENGTH = 255;
/** GitHub's limit for its label routes. */
export const RUNNER_LABELS_MAX = 100;
/** act_runner's `--labels` list is comma-separated. */
export const RUNNER_LABEL_PATTERN = /^[^\s,]+$/;

export interface ActionRunnerLabelDto {
  id: number;
  name: string;
  type: 'custom';
}

/** `status`: `online` within `[actions] RUNNER_OFFLINE_TIME`; `busy` if it also reported work within `RUNNER_IDLE_TIME`. */
export interface ActionRunnerDto {
  id: number;
  name: string;
  status: 'online' | 'offline';
  busy: boolean;
  ephemeral: boolean;
  labels: ActionRunnerLabelDto[];
  last_online: string | null;
}

/** GitHub's list shape: no `X-Total-Count` header. */
export interface ActionRunnersResponseDto {
  runners: ActionRunnerDto[];
  total_count: number;
}

export interface RunnerLabelsDto {
  total_count: number;
  labels: ActionRunnerLabelDto[];
}

/** 200, as Gitea; no `expires_at`. */
export interface RegistrationTokenDto {
  token: string;
}

export class RunnerListRequest extends ActionsScopedRequest {
  @IsOptional() @ValidateNested() @Type(() => ListQuery) query?: ListQuery;
}

export class RunnerRequest extends ActionsScopedRequest {
  @IsInt() @Min(0) runnerId: number;
}

export class RunnerLabelsBody {
  @IsArray()
  @ArrayMaxSize(RUNNER_LABELS_MAX)
  @IsString({ each: true })
  @MaxLength(RUNNER_LABEL_MAX_LENGTH, { each: true })
  @Matches(RUNNER_LABEL_PATTERN, { each: true, message: 'each label must be non-empty, without spaces or commas' })
  labels: string[];
}

export class RunnerLabelsChangeRequest extends RunnerRequest {
  @ValidateNested() @Type(() => RunnerLabelsBody) body: RunnerLabelsBody;
}

export class RunnerLabelRemoveRequest extends RunnerRequest {
  @IsString() @MaxLength(RUNNER_LABEL_MAX_LENGTH) name: string;
}

export class RegistrationTokenRequest extends ActionsScopedRequest {
  @IsOptional() @IsBoolean() reset?: boolean;
}
