import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { ActorDto } from '../common/actor.js';
import { ACCESS_LEVELS, RepoRefDto, type AccessLevel } from '../repo/repo-access.dto.js';

/** runners-service turns a scope into Gitea's (owner_id, repo_id) pair and checks who may manage it. */
export const ACTIONS_SCOPE_LEVELS = ['admin', 'user', 'org', 'repo'] as const;
export type ActionsScopeLevel = (typeof ACTIONS_SCOPE_LEVELS)[number];

export class ActionsScopeDto {
  @IsIn(ACTIONS_SCOPE_LEVELS) level: ActionsScopeLevel;
  @ValidateIf((o: ActionsScopeDto) => o.level === 'repo') @ValidateNested() @Type(() => RepoRefDto) repo?: RepoRefDto;
  @ValidateIf((o: ActionsScopeDto) => o.level === 'repo') @IsIn(ACCESS_LEVELS) access?: AccessLevel;
  @ValidateIf((o: ActionsScopeDto) => o.level === 'org') @IsString() @MaxLength(255) org?: string;
}

export class ActionsScopedRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @ValidateNested() @Type(() => ActionsScopeDto) scope: ActionsScopeDto;
}
