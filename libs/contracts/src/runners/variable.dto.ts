import { Type } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import { ActionsScopedRequest } from './actions-scope.dto.js';

/** runners-service checks the real rule (pattern, reserved prefixes) so that its 400 names it. */
export const ACTIONS_NAME_MAX_LENGTH = 255;
/** Keeps absurd bodies off the bus; runners-service checks the stored limits (4 UTF-16 units per character at most). */
const VALUE_TRANSPORT_MAX = 4 * 65_536;
/** runners-service cuts it to Gitea's 4,096 characters. */
const DESCRIPTION_TRANSPORT_MAX = 4 * 4_096;

export class CreateVariableBody {
  /** Required and not empty, as Gitea's binding. */
  @IsString() @IsNotEmpty() @MaxLength(VALUE_TRANSPORT_MAX) value: string;
  @IsOptional() @IsString() @MaxLength(DESCRIPTION_TRANSPORT_MAX) description?: string;
}

export class UpdateVariableBody {
  @IsOptional() @IsString() @MaxLength(ACTIONS_NAME_MAX_LENGTH) name?: string;
  @IsString() @IsNotEmpty() @MaxLength(VALUE_TRANSPORT_MAX) value: string;
  @IsOptional() @IsString() @MaxLength(DESCRIPTION_TRANSPORT_MAX) description?: string;
}

/** A repository's variable has owner_id 0 (Gitea's scope convention). */
export interface ActionVariableDto {
  owner_id: number;
  repo_id: number;
  name: string;
  data: string;
  description: string;
}

export class VariableListRequest extends ActionsScopedRequest {
  @IsOptional() @ValidateNested() @Type(() => ListQuery) query?: ListQuery;
}

export class VariableRequest extends ActionsScopedRequest {
  @IsString() @MaxLength(ACTIONS_NAME_MAX_LENGTH) name: string;
}

export class VariableCreateRequest extends VariableRequest {
  @ValidateNested() @Type(() => CreateVariableBody) body: CreateVariableBody;
}

export class VariableUpdateRequest extends VariableRequest {
  @ValidateNested() @Type(() => UpdateVariableBody) body: UpdateVariableBody;
}

export class CreateOrUpdateSecretBody {
  @IsString() @IsNotEmpty() @MaxLength(VALUE_TRANSPORT_MAX) data: string;
  @IsOptional() @IsString() @MaxLength(DESCRIPTION_TRANSPORT_MAX) description?: string;
}

export interface SecretDto {
  name: string;
  description: string;
  created_at: string;
}

export class SecretListRequest extends ActionsScopedRequest {
  @IsOptional() @ValidateNested() @Type(() => ListQuery) query?: ListQuery;
}

export class SecretRequest extends ActionsScopedRequest {
  @IsString() @MaxLength(ACTIONS_NAME_MAX_LENGTH) name: string;
}

export class SecretPutRequest extends SecretRequest {
  @ValidateNested() @Type(() => CreateOrUpdateSecretBody) body: CreateOrUpdateSecretBody;
}

export interface SecretPutReply {
  created: boolean;
}
