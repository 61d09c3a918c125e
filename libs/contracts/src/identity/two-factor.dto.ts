import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ActorRequest } from './user.dto.js';

export class TwoFactorRequest extends ActorRequest {
  @IsOptional() @IsString() @MaxLength(255) username?: string;
  /** The web settings page sends one; the API's `DELETE /user/2fa` relies on its password (+ `X-Gitea-OTP`) instead. */
  @IsOptional() @IsString() @MaxLength(16) passcode?: string;
}

export interface TwoFactorEnrollReply {
  secret: string;
  otpauth_url: string;
}

export class TwoFactorConfirmBody {
  @IsString() @Matches(/^\s*\d{6}\s*$/, { message: 'passcode must be the 6-digit code of your authenticator app' })
  passcode: string;
}

export class TwoFactorConfirmRequest extends ActorRequest {
  @IsString() @MaxLength(16) passcode: string;
}

export interface TwoFactorConfirmReply {
  scratch_token: string;
}
