import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import { ActorRequest } from './user.dto.js';

export const SCOPE_CATEGORIES = [
  'activitypub', 'admin', 'issue', 'misc', 'notification', 'organization', 'package', 'repository', 'user',
] as const;
export type ScopeCategory = (typeof SCOPE_CATEGORIES)[number];

export const TOKEN_SCOPES: readonly string[] = [
  'all',
  ...SCOPE_CATEGORIES.flatMap((c) => [`read:${c}`, `write:${c}`]),
];

export interface AccessTokenDto {
  id: number;
  name: string;
  sha1: string;
  token_last_eight: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
}

export class CreateAccessTokenBody {
  @IsString() @MinLength(1) @MaxLength(255) name: string;
  @IsOptional() @IsArray() @ArrayMaxSize(32) @IsString({ each: true }) @MaxLength(64, { each: true }) scopes?: string[];
}

export class CreateTokenRequest extends ActorRequest {
  @IsString() username: string;
  @ValidateNested() @Type(() => CreateAccessTokenBody) body: CreateAccessTokenBody;
}
export class ListTokensRequest extends ActorRequest {
  @IsString() username: string;
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}
export class DeleteTokenRequest extends ActorRequest {
  @IsString() username: string;
  @IsString() @MaxLength(255) token: string;
}
