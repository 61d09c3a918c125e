import { IsBoolean, IsInt, IsOptional, IsString } from 'class-validator';

/**
 * Who is calling, as the gateway authenticated it. Sent with every request message so services can apply their
 * own rules; `null` means anonymous.
 */
export class ActorDto {
  @IsInt() id: number;
  @IsString() login: string;
  @IsBoolean() isAdmin: boolean;
  /** Token scopes (Gitea's names, e.g. `write:repository`); `['all']` for password and session logins. */
  @IsString({ each: true }) scopes: string[];
  /** Whether the user has two-factor authentication enrolled. */
  @IsBoolean() hasTwoFactor: boolean;
  @IsOptional() @IsString() via?: 'token' | 'password' | 'session' | 'ssh' | 'runner';
  /** The access token id, when authenticated with a token. */
  @IsOptional() @IsInt() tokenId?: number;
}

/** The actor field of every request envelope. */
export type Actor = ActorDto | null;
