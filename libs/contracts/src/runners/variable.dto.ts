import { Type } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import { ActionsScopedRequest } from './actions-scope.dto.js';

/**
 * The longest name a path or body may carry; the real rule (pattern, reserved prefixes) is checked by runners-service
 * so that its 400 names the rule.
 */
export const ACTIONS_NAME_MAX_LENGTH = 255;
/**
 * Transport bound of a value: the stored limits (Gitea's 65,536 characters for variables, bytes for secrets) are
 * checked by runners-service; this only keeps absurd bodies off the bus (4 UTF-16 units per character at most).
 */
const VALUE_TRANSPORT_MAX = 4 * 65_536;
/** Transport bound of a description (runners-service cuts it to Gitea's 4,096 characters). */
const DESCRIPTION_TRANSPORT_MAX = 4 * 4_096;

/** `POST …/actions/variables/{variablename}` body (Gitea's `CreateVariableOption`). */
export class CreateVariableBody {
  /** The value (required and not empty, as Gitea's binding). */
  @IsString() @IsNotEmpty() @MaxLength(VALUE_TRANSPORT_MAX) value: string;
  @IsOptional() @IsString() @MaxLength(DESCRIPTION_TRANSPORT_MAX) description?: string;
}

/** `PUT …/actions/variables/{variablename}` body (Gitea's `UpdateVariableOption`): `name` renames when not empty. */
export class UpdateVariableBody {
  @IsOptional() @IsString() @MaxLength(ACTIONS_NAME_MAX_LENGTH) name?: string;
  /** The new value (required and not empty, as Gitea's binding). */
  @IsString() @IsNotEmpty() @MaxLength(VALUE_TRANSPORT_MAX) value: string;
  @IsOptional() @IsString() @MaxLength(DESCRIPTION_TRANSPORT_MAX) description?: string;
}

/** Gitea's `ActionVariable`. `owner_id`/`repo_id` follow Gitea's scope convention (a repository's: owner_id 0). */
export interface ActionVariableDto {
  owner_id: number;
  repo_id: number;
  name: string;
  data: string;
  description: string;
}

/** `runners.variable.list`. */
export class VariableListRequest extends ActionsScopedRequest {
  @IsOptional() @ValidateNested() @Type(() => ListQuery) query?: ListQuery;
}

/** `runners.variable.get` / `delete`: one variable of the scope by name. */
export class VariableRequest extends ActionsScopedRequest {
  @IsString() @MaxLength(ACTIONS_NAME_MAX_LENGTH) name: string;
}

/** `runners.variable.create`. */
export class VariableCreateRequest extends VariableRequest {
  @ValidateNested() @Type(() => CreateVariableBody) body: CreateVariableBody;
}

/** `runners.variable.update`. */
export class VariableUpdateRequest extends VariableRequest {
  @ValidateNested() @Type(() => UpdateVariableBody) body: UpdateVariableBody;
}

/** `PUT …/actions/secrets/{secretname}` body (Gitea's `CreateOrUpdateSecretOption`). */
export class CreateOrUpdateSecretBody {
  /** The value (required and not empty); stored encrypted, never answered. */
  @IsString() @IsNotEmpty() @MaxLength(VALUE_TRANSPORT_MAX) data: string;
  @IsOptional() @IsString() @MaxLength(DESCRIPTION_TRANSPORT_MAX) description?: string;
}

/** Gitea's `Secret`: never the value. */
export interface SecretDto {
  name: string;
  description: string;
  created_at: string;
}

/** `runners.secret.list`. */
export class SecretListRequest extends ActionsScopedRequest {
  @IsOptional() @ValidateNested() @Type(() => ListQuery) query?: ListQuery;
}

/** `runners.secret.delete`: one secret of the scope by name. */
export class SecretRequest extends ActionsScopedRequest {
  @IsString() @MaxLength(ACTIONS_NAME_MAX_LENGTH) name: string;
}

/** `runners.secret.put`. */
export class SecretPutRequest extends SecretRequest {
  @ValidateNested() @Type(() => CreateOrUpdateSecretBody) body: CreateOrUpdateSecretBody;
}

/** `runners.secret.put` reply: whether the secret was new (201) or replaced (204). */
export interface SecretPutReply {
  created: boolean;
}
