import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ActorRequest } from './user.dto.js';

/** `identity.two-factor.enroll` / `.disable`: for the actor, or (site admins) for another user. */
export class TwoFactorRequest extends ActorRequest {
  /** Whose enrolment; absent = the actor's. */
  @IsOptional() @IsString() @MaxLength(255) username?: string;
}

/** What `identity.two-factor.enroll` replies: shown once, never retrievable again. */
export interface TwoFactorEnrollReply {
  /** The TOTP secret, base32 (RFC 4648, no padding). */
  secret: string;
  /** `otpauth://totp/…` URI for authenticator apps (contains the secret). */
  otpauth_url: string;
  /** A one-time recovery code. */
  scratch_token: string;
}
