import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ActorDto } from '../common/actor.js';
import type { UserDto } from './user.dto.js';

export const CREDENTIAL_KINDS = ['token', 'password'] as const;

export class ResolveCredentialsRequest {
  @IsIn(CREDENTIAL_KINDS) kind: (typeof CREDENTIAL_KINDS)[number];
  @IsString() @MaxLength(1024) secret: string;
  /** A token used as password may come with any user name. */
  @IsOptional() @IsString() @MaxLength(255) username?: string;
  @IsOptional() @IsString() @MaxLength(16) otp?: string;
  /** Not checked by the gateway: identity-service enforces admin-only. */
  @IsOptional() @IsString() @MaxLength(255) sudo?: string;
  @IsOptional() @IsString() @MaxLength(64) clientAddress?: string;
}

export interface ResolveCredentialsReply {
  actor: ActorDto;
  /** `GET /user` is answered from it without a second call. */
  user: UserDto;
  /** Gitea then answers 403 outside the web UI. */
  mustChangePassword?: boolean;
  /** With `Sudo`: the administrator who really signed in; the gateway holds them to the two-factor policy too. */
  sudoer?: { id: number; login: string; hasTwoFactor: boolean };
}

export class ActorOnlyRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
}

export class SessionUserRequest {
  @IsInt() userId: number;
}

export class AuthReferenceRequest {
  @IsInt() userId: number;
  @IsOptional() @IsInt() tokenId?: number;
}

export class WebSignInRequest {
  @IsString() @MaxLength(255) login: string;
  @IsString() @MaxLength(1024) password: string;
  @IsOptional() @IsString() @MaxLength(64) clientAddress?: string;
}

export interface WebSignInReply {
  userId: number;
  twoFactorRequired: boolean;
}

export const SECOND_FACTOR_METHODS = ['totp', 'recovery'] as const;

export class SecondFactorRequest {
  @IsInt() userId: number;
  @IsIn(SECOND_FACTOR_METHODS) method: (typeof SECOND_FACTOR_METHODS)[number];
  @IsString() @MaxLength(64) code: string;
  @IsOptional() @IsString() @MaxLength(64) clientAddress?: string;
}

export interface SecondFactorReply {
  userId: number;
  recoveryCodeUsed: boolean;
}
