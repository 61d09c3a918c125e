import { Type } from 'class-transformer';
import { IsBoolean, IsEmail, IsIn, IsOptional, IsString, IsUrl, MaxLength, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { ActorDto } from '../common/actor.js';

export const DIFF_VIEW_STYLES = ['', 'unified', 'split'] as const;

export interface UserSettingsDto {
  full_name: string;
  website: string;
  description: string;
  location: string;
  language: string;
  hide_email: boolean;
  hide_activity: boolean;
  diff_view_style: string;
  theme: string;
}

/** Lengths follow Gitea's profile form; a website must be an http(s) URL or empty. */
export class UserSettingsOptions {
  @IsOptional() @IsString() @MaxLength(100) full_name?: string;
  @IsOptional() @IsString() @MaxLength(255)
  @ValidateIf((o: UserSettingsOptions) => o.website !== '')
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'website must be an http(s) URL' })
  website?: string;
  @IsOptional() @IsString() @MaxLength(255) description?: string;
  @IsOptional() @IsString() @MaxLength(50) location?: string;
  @IsOptional() @IsString() @MaxLength(16) language?: string;
  @IsOptional() @IsBoolean() hide_email?: boolean;
  @IsOptional() @IsBoolean() hide_activity?: boolean;
  @IsOptional() @IsIn(DIFF_VIEW_STYLES) diff_view_style?: string;
  @IsOptional() @IsString() @MaxLength(30) theme?: string;
}

export class UserSettingsRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsOptional() @ValidateNested() @Type(() => UserSettingsOptions) body?: UserSettingsOptions;
}

/** Gitea's default `[security] MIN_PASSWORD_LENGTH`. */
export const MIN_PASSWORD_LENGTH = 8;

export class ChangeOwnPasswordRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsString()
  @MinLength(MIN_PASSWORD_LENGTH, { message: `the password must be at least ${MIN_PASSWORD_LENGTH} characters long` })
  @MaxLength(255)
  password: string;
}

export class RegisterUserRequest {
  @IsString() @MinLength(1) @MaxLength(40) username: string;
  @IsEmail() @MaxLength(255) email: string;
  @IsString()
  @MinLength(MIN_PASSWORD_LENGTH, { message: `the password must be at least ${MIN_PASSWORD_LENGTH} characters long` })
  @MaxLength(255)
  password: string;
  @IsOptional() @IsString() @MaxLength(64) clientAddress?: string;
}
