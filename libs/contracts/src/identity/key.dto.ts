import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import { ActorRequest, type UserDto } from './user.dto.js';

/** `user`, `read_only` and `key_type` only for the owner or an admin. */
export interface PublicKeyDto {
  id: number;
  key: string;
  url: string;
  title: string;
  fingerprint: string;
  created_at: string;
  last_used_at: string | null;
  /** Cairn: the owner proved they hold the key (`POST /user/ssh_key_verify`); only such keys verify commits. */
  verified: boolean;
  user?: UserDto;
  read_only?: boolean;
  key_type?: string;
}

export class CreateKeyBody {
  @IsString() @MinLength(1) @MaxLength(255) title: string;
  @IsString() @MinLength(1) @MaxLength(16384) key: string;
  @IsOptional() @IsBoolean() read_only?: boolean;
}

export class ListKeysQuery extends ListQuery {
  @IsOptional() @IsString() @MaxLength(255) fingerprint?: string;
}

export class CreateKeyRequest extends ActorRequest {
  @ValidateNested() @Type(() => CreateKeyBody) body: CreateKeyBody;
  @IsOptional() @IsString() @MaxLength(255) username?: string;
}
export class ListKeysRequest extends ActorRequest {
  @IsOptional() @IsString() username?: string;
  @ValidateNested() @Type(() => ListKeysQuery) query: ListKeysQuery;
}
export class KeyIdRequest extends ActorRequest {
  @IsInt() id: number;
  @IsOptional() @IsString() @MaxLength(255) username?: string;
}

export class ResolveKeyRequest {
  @IsString() @MaxLength(16384) keyBlobBase64: string;
}
export interface ResolveKeyReply {
  keyId: number;
  fingerprint: string;
  actor: import('../common/actor.js').ActorDto;
}
export class TouchKeyRequest {
  @IsInt() keyId: number;
}

export class CheckDeployKeyRequest {
  @IsString() @MinLength(1) @MaxLength(16384) key: string;
}
export interface CheckDeployKeyReply {
  content: string;
  fingerprint: string;
}
