import { Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ActorDto } from '../common/actor.js';

/** Access levels on a repository, weakest first (Gitea's `AccessMode`). */
export const ACCESS_LEVELS = ['none', 'read', 'write', 'admin', 'owner'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** True when `have` is at least `need`. */
export function accessAtLeast(have: AccessLevel, need: AccessLevel): boolean {
  return ACCESS_LEVELS.indexOf(have) >= ACCESS_LEVELS.indexOf(need);
}

/**
 * The repository units whose access can differ from the repository's (a team's `units_map`), as Gitea's unit types
 * `repo.code`, `repo.issues`, `repo.pulls`, `repo.releases`; wikis and external trackers Cairn does not have.
 */
export const REPO_UNITS = ['code', 'issues', 'pulls', 'releases'] as const;
export type RepoUnit = (typeof REPO_UNITS)[number];
/** Per-unit access where it differs from the repository-wide level. */
export type UnitAccess = Partial<Record<RepoUnit, AccessLevel>>;

/**
 * The access that counts for a unit (the strongest of several: Gitea's `CanAccessAny`), or the repository-wide
 * level when no unit is named or the unit has no level of its own.
 */
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

/**
 * The access that counts on one issue of the issue tracker's shared routes (`/issues/…`, labels, milestones), whose
 * `access` is the stronger of the issues and pulls units: its own unit's level when `units` names it (Gitea's
 * `CanReadIssuesOrPulls(issue.IsPull)`), else `access`.
 */
export function issueUnitAccess(req: { access: AccessLevel; units?: UnitAccess }, isPull: boolean): AccessLevel {
  const level = req.units?.[isPull ? 'pulls' : 'issues'];
  return level !== undefined && (ACCESS_LEVELS as readonly string[]).includes(level) ? level : req.access;
}

/** A repository's trust model for commit signatures (Gitea's `TrustModelType`). */
export const REPO_TRUST_MODELS = ['default', 'collaborator', 'committer', 'collaboratorcommitter'] as const;
export type RepoTrustModel = (typeof REPO_TRUST_MODELS)[number];

/**
 * What every repository-scoped request carries once the gateway has resolved it: enough to locate the repository
 * (ids and names; storage is derived from them by repo-service) and to render it in payloads.
 */
export class RepoRefDto {
  @IsInt() id: number;
  /** Owner id (user or organization). */
  @IsInt() ownerId: number;
  /** Owner login, as stored (original case). */
  @IsString() @MaxLength(255) ownerName: string;
  @IsString() @MaxLength(255) name: string;
  /** The default branch name. */
  @IsString() @MaxLength(255) defaultBranch: string;
  @IsOptional() private?: boolean;
  @IsOptional() empty?: boolean;
  /** Archived: read-only (pushes and writes refused). */
  @IsOptional() archived?: boolean;
  /** How signed commits are trusted (absent: read from the repository when needed). */
  @IsOptional() @IsIn(REPO_TRUST_MODELS) trustModel?: RepoTrustModel;
}

/** `repo.access.resolve` request. */
export class RepoAccessRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsString() @MaxLength(255) owner: string;
  @IsString() @MaxLength(255) repo: string;
}

/** `repo.access.resolve` reply. */
export interface RepoAccessReply {
  repo: RepoRefDto;
  /** The actor's access level (`none` only for public repositories read by someone without rights: then read). */
  access: AccessLevel;
  /** Units whose level differs from `access` (a team's per-unit `units_map`); absent when none does. */
  units?: UnitAccess;
}

/** Every repository-scoped message: the actor, the resolved repository and the actor's access. */
export class RepoScopedRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @ValidateNested() @Type(() => RepoRefDto) repo: RepoRefDto;
  @IsIn(ACCESS_LEVELS) access: AccessLevel;
  /**
   * On routes shared by several units (the issue tracker's: issues and pull requests), each unit's own level when a
   * team's `units_map` makes them differ; `access` is then the strongest ({@link issueUnitAccess}).
   */
  @IsOptional() @IsObject() units?: UnitAccess;
}
