import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { MAX_INT32 } from '../common/pagination.js';
import { ListQuery } from '../common/pagination.js';
import { ActorRequest } from './user.dto.js';

export const MAX_ARMORED_GPG_KEY_LENGTH = 64 * 1024;
export const MAX_ARMORED_SIGNATURE_LENGTH = 16 * 1024;

export interface GpgKeyEmailDto {
  email: string;
  verified: boolean;
}

/** Subkeys have an empty `emails` and `subkeys`, and their primary's id in `primary_key_id`. */
export interface GpgKeyDto {
  id: number;
  primary_key_id: string;
  key_id: string;
  public_key: string;
  emails: GpgKeyEmailDto[];
  subkeys: GpgKeyDto[];
  can_sign: boolean;
  can_encrypt_comms: boolean;
  can_encrypt_storage: boolean;
  can_certify: boolean;
  verified: boolean;
  created_at: string;
  expires_at: string;
}

export class CreateGpgKeyBody {
  @IsString() @MaxLength(MAX_ARMORED_GPG_KEY_LENGTH) armored_public_key: string;
  /** A detached signature over the verification token: adds a key whose e-mails are not the user's, verified. */
  @IsOptional() @IsString() @MaxLength(MAX_ARMORED_SIGNATURE_LENGTH) armored_signature?: string;
}

export class VerifyGpgKeyBody {
  @IsString() @MaxLength(40) key_id: string;
  @IsString() @MaxLength(MAX_ARMORED_SIGNATURE_LENGTH) armored_signature: string;
}

export class VerifySshKeyBody {
  @IsInt() @Min(1) @Max(MAX_INT32) key_id: number;
  @IsString() @MaxLength(MAX_ARMORED_SIGNATURE_LENGTH) signature: string;
}

export class CreateGpgKeyRequest extends ActorRequest {
  @ValidateNested() @Type(() => CreateGpgKeyBody) body: CreateGpgKeyBody;
}
export class VerifyGpgKeyRequest extends ActorRequest {
  @ValidateNested() @Type(() => VerifyGpgKeyBody) body: VerifyGpgKeyBody;
}
export class VerifySshKeyRequest extends ActorRequest {
  @ValidateNested() @Type(() => VerifySshKeyBody) body: VerifySshKeyBody;
}
export class ListGpgKeysRequest extends ActorRequest {
  @IsOptional() @IsString() username?: string;
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}
