import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ActorDto } from '../common/actor.js';
import { ListQuery } from '../common/pagination.js';
import { RepoScopedRequest } from './repo-access.dto.js';

/** Starring and watching a repository: the same relation, two kinds (Gitea's `star` and `watch`). */
export const FOLLOW_KINDS = ['star', 'watch'] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];

/** Gitea's `WatchInfo`: what `/repos/{owner}/{repo}/subscription` answers. */
export interface WatchInfoDto {
  subscribed: boolean;
  ignored: boolean;
  reason: null;
  created_at: string;
  url: string;
  repository_url: string;
}

/** `repo.follow.set`: the actor stars/watches (`on`) or stops. Replies the state ({@link FollowStateReply}). */
export class SetFollowRequest extends RepoScopedRequest {
  @IsIn(FOLLOW_KINDS) kind: FollowKind;
  @IsBoolean() on: boolean;
}
/** `repo.follow.check`: does the actor star/watch the repository. */
export class CheckFollowRequest extends RepoScopedRequest {
  @IsIn(FOLLOW_KINDS) kind: FollowKind;
}
/** Whether the actor follows, and for watches Gitea's `WatchInfo`. */
export interface FollowStateReply {
  following: boolean;
  watch: WatchInfoDto;
}
/** `repo.follow.followers`: the repository's stargazers / subscribers → `Paginated<UserDto>`. */
export class ListFollowersRequest extends RepoScopedRequest {
  @IsIn(FOLLOW_KINDS) kind: FollowKind;
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}
/** `repo.follow.followed`: the repositories a user stars / watches that the actor may see → `Paginated<RepositoryDto>`. */
export class ListFollowedRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsIn(FOLLOW_KINDS) kind: FollowKind;
  /** Whose; absent = the actor's. */
  @IsOptional() @IsString() @MaxLength(255) username?: string;
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}
