import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ActorDto } from '../common/actor.js';
import { ListQuery } from '../common/pagination.js';
import { RepoScopedRequest } from './repo-access.dto.js';

/** Gitea's `star` and `watch`: the same relation, two kinds. */
export const FOLLOW_KINDS = ['star', 'watch'] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];

export interface WatchInfoDto {
  subscribed: boolean;
  ignored: boolean;
  reason: null;
  created_at: string;
  url: string;
  repository_url: string;
}

export class SetFollowRequest extends RepoScopedRequest {
  @IsIn(FOLLOW_KINDS) kind: FollowKind;
  @IsBoolean() on: boolean;
}
export class CheckFollowRequest extends RepoScopedRequest {
  @IsIn(FOLLOW_KINDS) kind: FollowKind;
}
export interface FollowStateReply {
  following: boolean;
  watch: WatchInfoDto;
}
export class ListFollowersRequest extends RepoScopedRequest {
  @IsIn(FOLLOW_KINDS) kind: FollowKind;
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}
export class ListFollowedRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsIn(FOLLOW_KINDS) kind: FollowKind;
  @IsOptional() @IsString() @MaxLength(255) username?: string;
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}
