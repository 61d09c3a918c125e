import { Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ActorDto } from '../common/actor.js';

/** Weakest first (Gitea's `AccessMode`). */
export const ACCESS_LEVELS = ['none', 'read', 'write', 'admin', 'owner'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export function accessAtLeast(have: AccessLevel, need: AccessLevel): boolean {
  return ACCESS_LEVELS.indexOf(have) >= ACCESS_LEVELS.indexOf(need);
}

/** The units a team's `units_map` can set apart (Gitea's `repo.code` …); Cairn has no wikis or external trackers. */
export const REPO_UNITS = ['code', 'issues', 'pulls', 'releases'] as const;
export type RepoUnit = (typeof REPO_UNITS)[number];
export type UnitAccess = Partial<Record<RepoUnit, AccessLevel>>;

/** The strongest of several (Gitea's `CanAccessAny`), or the repository-wide level when the unit has none. */
export function unitAccessLevel(grant: { access: AccessLevel; units?: UnitAccess }, units?: RepoUnit | readonly RepoUnit[]): AccessLevel {
  if (units === undefined) return grant.access;
  const list: readonly RepoUnit[] = typeof units === 'string' ? [units] : units;
  let best: AccessLevel = 'none';
  for (const u of list) {
    const level = grant.units?.[u] ?? grant.access;
    if (accessAtLeast(level, best)) best = level;
  }
  return best;
}

/** Shared issue-tracker routes carry the stronger of issues and pulls; Gitea's `CanReadIssuesOrPulls(issue.IsPull)`. */
export function issueUnitAccess(req: { access: AccessLevel; units?: UnitAccess }, isPull: boolean): AccessLevel {
  const level = req.units?.[isPull ? 'pulls' : 'issues'];
  return level !== undefined && (ACCESS_LEVELS as readonly string[]).includes(level) ? level : req.access;
}

export const REPO_TRUST_MODELS = ['default', 'collaborator', 'committer', 'collaboratorcommitter'] as const;
export type RepoTrustModel = (typeof REPO_TRUST_MODELS)[number];

export class RepoRefDto {
  @IsInt() id: number;
  @IsInt() ownerId: number;
  @IsString() @MaxLength(255) ownerName: string;
  @IsString() @MaxLength(255) name: string;
  @IsString() @MaxLength(255) defaultBranch: string;
  @IsOptional() private?: boolean;
  @IsOptional() empty?: boolean;
  @IsOptional() archived?: boolean;
  @IsOptional() @IsIn(REPO_TRUST_MODELS) trustModel?: RepoTrustModel;
}

export class RepoAccessRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsString() @MaxLength(255) owner: string;
  @IsString() @MaxLength(255) repo: string;
}

export interface RepoAccessReply {
  repo: RepoRefDto;
  /** `none` only for public repositories read by someone without rights: then read. */
  access: AccessLevel;
  units?: UnitAccess;
}

export class RepoScopedRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @ValidateNested() @Type(() => RepoRefDto) repo: RepoRefDto;
  @IsIn(ACCESS_LEVELS) access: AccessLevel;
  /** A team's `units_map` may set issues and pulls apart; `access` is then the strongest ({@link issueUnitAccess}). */
  @IsOptional() @IsObject() units?: UnitAccess;
}
