import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { ActorDto } from '../common/actor.js';
import { ACCESS_LEVELS, RepoRefDto, type AccessLevel } from '../repo/repo-access.dto.js';

/**
 * Where Actions runners, registration tokens, variables and secrets live: the instance (`admin`), the calling user
 * (`user`), an organization (`org`) or a repository (`repo`). runners-service turns a scope into Gitea's
 * (owner_id, repo_id) pair and checks who may manage it.
 */
export const ACTIONS_SCOPE_LEVELS = ['admin', 'user', 'org', 'repo'] as const;
export type ActionsScopeLevel = (typeof ACTIONS_SCOPE_LEVELS)[number];

/** The scope of an Actions request. `repo` carries the gateway's resolved repository and access; `org` the org name. */
export class ActionsScopeDto {
  @IsIn(ACTIONS_SCOPE_LEVELS) level: ActionsScopeLevel;
  /** The repository (level `repo`), as resolved by the gateway's repository guard. */
  @ValidateIf((o: ActionsScopeDto) => o.level === 'repo') @ValidateNested() @Type(() => RepoRefDto) repo?: RepoRefDto;
  /** The actor's access to that repository (level `repo`). */
  @ValidateIf((o: ActionsScopeDto) => o.level === 'repo') @IsIn(ACCESS_LEVELS) access?: AccessLevel;
  /** The organization name (level `org`). */
  @ValidateIf((o: ActionsScopeDto) => o.level === 'org') @IsString() @MaxLength(255) org?: string;
}

/** Every Actions request: the actor and the scope. */
export class ActionsScopedRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @ValidateNested() @Type(() => ActionsScopeDto) scope: ActionsScopeDto;
}
