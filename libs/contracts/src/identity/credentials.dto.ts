import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ActorDto } from '../common/actor.js';
import type { UserDto } from './user.dto.js';

/** The kinds of credential the gateway (or the SSH server) presents for resolution. */
export const CREDENTIAL_KINDS = ['token', 'password'] as const;

/** `identity.auth.resolve`: exactly what the client presented; identity-service decides. */
export class ResolveCredentialsRequest {
  /** `token`: a bearer/`token`/query token or a token used as a Basic password; `password`: Basic user + password. */
  @IsIn(CREDENTIAL_KINDS) kind: (typeof CREDENTIAL_KINDS)[number];
  /** The token, or the password. */
  @IsString() @MaxLength(1024) secret: string;
  /** For Basic auth: the user name given (a token used as password may come with any user name). */
  @IsOptional() @IsString() @MaxLength(255) username?: string;
  /** For Basic auth with a password, when the user has two-factor enrolled: the `X-Gitea-OTP` passcode. */
  @IsOptional() @IsString() @MaxLength(16) otp?: string;
  /** `Sudo` target, already checked by nothing: identity-service enforces admin-only. */
  @IsOptional() @IsString() @MaxLength(255) sudo?: string;
  /** The client's source address as the gateway saw it: failed sign-ins are also throttled per address. */
  @IsOptional() @IsString() @MaxLength(64) clientAddress?: string;
}

/** What `identity.auth.resolve` replies. */
export interface ResolveCredentialsReply {
  actor: ActorDto;
  /** The effective user's Gitea `User` shape: `GET /user` is answered from it without a second call. */
  user: UserDto;
  /** The user must change their password before using the API (Gitea then answers 403 outside the web UI). */
  mustChangePassword?: boolean;
  /**
   * With `Sudo`: the administrator who really signed in (the actor is the user acted as). The gateway holds the
   * administrator to the two-factor policy too.
   */
  sudoer?: { id: number; login: string; hasTwoFactor: boolean };
}

export class ActorOnlyRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
}

/** `identity.auth.session`: the user id a web session signed in as. */
export class SessionUserRequest {
  @IsInt() userId: number;
}

/** `identity.auth.reference`: a user id and, when the sign-in was made with an access token, that token's id. */
export class AuthReferenceRequest {
  @IsInt() userId: number;
  @IsOptional() @IsInt() tokenId?: number;
}

/** `identity.auth.web-sign-in`: the sign-in form's first step (user name or e-mail, and password). */
export class WebSignInRequest {
  @IsString() @MaxLength(255) login: string;
  @IsString() @MaxLength(1024) password: string;
  @IsOptional() @IsString() @MaxLength(64) clientAddress?: string;
}

/** A right password: signed in, or (two-factor enrolled) waiting for the second step. */
export interface WebSignInReply {
  userId: number;
  twoFactorRequired: boolean;
}

export const SECOND_FACTOR_METHODS = ['totp', 'recovery'] as const;

/** `identity.auth.web-second-factor`: the code step for a user whose password was right. */
export class SecondFactorRequest {
  @IsInt() userId: number;
  /** `totp`: a code of the authenticator app; `recovery`: the recovery (scratch) code shown at enrolment. */
  @IsIn(SECOND_FACTOR_METHODS) method: (typeof SECOND_FACTOR_METHODS)[number];
  @IsString() @MaxLength(64) code: string;
  @IsOptional() @IsString() @MaxLength(64) clientAddress?: string;
}

export interface SecondFactorReply {
  userId: number;
  /** The recovery code was used up: the user should enrol again or note a new one (Gitea's flash). */
  recoveryCodeUsed: boolean;
}
