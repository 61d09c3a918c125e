import { IsBoolean, IsInt, IsOptional, IsString } from 'class-validator';

export class ActorDto {
  @IsInt() id: number;
  @IsString() login: string;
  @IsBoolean() isAdmin: boolean;
  /** Gitea's scope names; `['all']` for password and session logins. */
  @IsString({ each: true }) scopes: string[];
  @IsBoolean() hasTwoFactor: boolean;
  @IsOptional() @IsString() via?: 'token' | 'password' | 'session' | 'ssh' | 'runner';
  @IsOptional() @IsInt() tokenId?: number;
}

export type Actor = ActorDto | null;
