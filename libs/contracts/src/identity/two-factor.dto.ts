import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ActorRequest } from './user.dto.js';

/** `identity.two-factor.enroll` / `.disable`: for the actor, or (site admins, disable only) for another user. */
export class TwoFactorRequest extends ActorRequest {
  /** Whose enrolment; absent = the actor's. */
  @IsOptional() @IsString() @MaxLength(255) username?: string;
  /**
   * Disable only: a current code of the active enrolment, checked before it is removed. The web
   * settings page always sends one; the API's `DELETE /user/2fa` relies on its password (+ `X-Gitea-OTP`) instead.
   */
  @IsOptional() @IsString() @MaxLength(16) passcode?: string;
}

/**
 * What `identity.two-factor.enroll` (`POST /user/2fa`) replies: a pending enrolment's secret, shown once, never
 * retrievable again. Nothing changes for the user until a code from it is confirmed.
 */
export interface TwoFactorEnrollReply {
  /** The TOTP secret, base32 (RFC 4648, no padding). */
  secret: string;
  /** `otpauth://totp/…` URI for authenticator apps (contains the secret). */
  otpauth_url: string;
}

/** `POST /user/2fa/confirm` body: a current code of the pending enrolment's authenticator. */
export class TwoFactorConfirmBody {
  @IsString() @Matches(/^\s*\d{6}\s*$/, { message: 'passcode must be the 6-digit code of your authenticator app' })
  passcode: string;
}

/** `identity.two-factor.confirm`: activates the actor's pending enrolment. */
export class TwoFactorConfirmRequest extends ActorRequest {
  @IsString() @MaxLength(16) passcode: string;
}

/** What `identity.two-factor.confirm` replies: the recovery code, shown once (stored hashed). */
export interface TwoFactorConfirmReply {
  /** A one-time recovery (scratch) code. */
  scratch_token: string;
}
