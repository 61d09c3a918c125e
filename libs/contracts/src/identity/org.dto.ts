import { Type } from 'class-transformer';
import {
  IsBoolean, IsIn, IsInt, IsOptional, IsString, MaxLength, MinLength, ValidateNested, IsArray, ArrayMaxSize,
  registerDecorator, IsEmail, IsUrl, ValidateIf,
} from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import { ActorRequest, VISIBILITIES, type Visibility, type UserDto } from './user.dto.js';

/** Gitea's `Organization`. */
export interface OrganizationDto {
  id: number;
  name: string;
  username: string;
  full_name: string;
  email: string;
  avatar_url: string;
  description: string;
  website: string;
  location: string;
  visibility: Visibility;
  repo_admin_change_team_access: boolean;
}

/** Team permission levels, as Gitea. */
export const TEAM_PERMISSIONS = ['none', 'read', 'write', 'admin', 'owner'] as const;
export type TeamPermission = (typeof TEAM_PERMISSIONS)[number];

/** Gitea's `Team`. */
export interface TeamDto {
  id: number;
  name: string;
  description: string;
  organization: OrganizationDto | null;
  includes_all_repositories: boolean;
  permission: TeamPermission;
  units: string[];
  units_map: Record<string, string>;
  can_create_org_repo: boolean;
}

/** `POST /orgs` body (Gitea's `CreateOrgOption`). */
export class CreateOrgBody {
  @IsString() @MinLength(1) @MaxLength(40) username: string;
  @IsOptional() @IsString() @MaxLength(255) full_name?: string;
  @IsOptional() @IsString() @MaxLength(255) email?: string;
  @IsOptional() @IsString() @MaxLength(255) description?: string;
  @IsOptional() @IsString() @MaxLength(255) website?: string;
  @IsOptional() @IsString() @MaxLength(255) location?: string;
  /** Empty: public. Gitea's binding accepts it, and its Go SDK always sends the field (`"visibility": ""`). */
  @IsOptional() @IsIn(['', ...VISIBILITIES]) visibility?: Visibility | '';
  @IsOptional() @IsBoolean() repo_admin_change_team_access?: boolean;
}

/** `PATCH /orgs/{org}` body (Gitea's `EditOrgOption`): absent fields stay as they are. */
export class EditOrgBody {
  @IsOptional() @IsString() @MaxLength(100) full_name?: string;
  /** Empty: unchanged (Gitea only replaces the address when one is given). */
  @IsOptional() @IsString() @MaxLength(255)
  @ValidateIf((o: EditOrgBody) => o.email !== '') @IsEmail({}, { message: 'email must be an email address' })
  email?: string;
  @IsOptional() @IsString() @MaxLength(255) description?: string;
  @IsOptional() @IsString() @MaxLength(255)
  @ValidateIf((o: EditOrgBody) => o.website !== '')
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'website must be an http(s) URL' })
  website?: string;
  @IsOptional() @IsString() @MaxLength(255) location?: string;
  /** Gitea's binding accepts an empty string for "unchanged". */
  @IsOptional() @IsIn(['', ...VISIBILITIES]) visibility?: Visibility | '';
  @IsOptional() @IsBoolean() repo_admin_change_team_access?: boolean;
}

/** Repository units a team may be given, as Gitea names them. */
export const TEAM_UNITS = [
  'repo.code', 'repo.issues', 'repo.ext_issues', 'repo.wiki', 'repo.ext_wiki', 'repo.pulls', 'repo.releases',
  'repo.projects', 'repo.packages', 'repo.actions',
] as const;

/** Access modes a unit may be given in `units_map`. */
export const UNIT_ACCESS_MODES = ['none', 'read', 'write', 'admin'] as const;

/** A `units_map` object: known unit names to {@link UNIT_ACCESS_MODES}. */
function IsUnitsMap(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isUnitsMap',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `units_map maps units (${TEAM_UNITS.join(', ')}) to one of ${UNIT_ACCESS_MODES.join(', ')}` },
      validator: {
        validate(value: unknown): boolean {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
          const entries = Object.entries(value);
          return entries.length <= 32 && entries.every(([unit, mode]) =>
            (TEAM_UNITS as readonly string[]).includes(unit) && (UNIT_ACCESS_MODES as readonly unknown[]).includes(mode));
        },
      },
    });
}

/** `POST /orgs/{org}/teams` body (Gitea's `CreateTeamOption`). */
export class CreateTeamBody {
  @IsString() @MinLength(1) @MaxLength(255) name: string;
  @IsOptional() @IsString() @MaxLength(255) description?: string;
  @IsOptional() @IsBoolean() includes_all_repositories?: boolean;
  /** `read`, `write` or `admin` (Gitea rejects `owner` and `none` here). */
  @IsOptional() @IsIn(['read', 'write', 'admin']) permission?: 'read' | 'write' | 'admin';
  @IsOptional() @IsArray() @ArrayMaxSize(32) @IsIn(TEAM_UNITS, { each: true }) units?: string[];
  /** Per-unit access (`none`, `read`, `write`, `admin`); takes precedence over `units` below admin permission. */
  @IsOptional() @IsUnitsMap() units_map?: Record<string, string>;
  @IsOptional() @IsBoolean() can_create_org_repo?: boolean;
}

/** `PATCH /teams/{id}` body (Gitea's `EditTeamOption`): absent fields stay as they are. */
export class EditTeamBody {
  /** Gitea declares it required but ignores an empty one; so does Cairn. */
  @IsOptional() @IsString() @MaxLength(255) name?: string;
  @IsOptional() @IsString() @MaxLength(255) description?: string;
  @IsOptional() @IsBoolean() includes_all_repositories?: boolean;
  @IsOptional() @IsIn(['', 'read', 'write', 'admin']) permission?: '' | 'read' | 'write' | 'admin';
  @IsOptional() @IsArray() @ArrayMaxSize(32) @IsIn(TEAM_UNITS, { each: true }) units?: string[];
  @IsOptional() @IsUnitsMap() units_map?: Record<string, string>;
  @IsOptional() @IsBoolean() can_create_org_repo?: boolean;
}


export class CreateOrgRequest extends ActorRequest {
  /** `POST /admin/users/{username}/orgs`: the user who becomes the owner (admin only); absent = the actor. */
  @IsOptional() @IsString() @MaxLength(255) username?: string;
  @ValidateNested() @Type(() => CreateOrgBody) body: CreateOrgBody;
}
export class OrgRequest extends ActorRequest {
  @IsString() @MaxLength(255) org: string;
}
export class OrgListRequest extends ActorRequest {
  /** A user whose memberships to list; absent = all organizations visible to the actor. */
  @IsOptional() @IsString() username?: string;
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}
export class OrgPagedRequest extends OrgRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}
export class CreateTeamRequest extends OrgRequest {
  @ValidateNested() @Type(() => CreateTeamBody) body: CreateTeamBody;
}
export class EditOrgRequest extends OrgRequest {
  @ValidateNested() @Type(() => EditOrgBody) body: EditOrgBody;
}
export class TeamRequest extends ActorRequest {
  @IsInt() teamId: number;
}
export class EditTeamRequest extends TeamRequest {
  @ValidateNested() @Type(() => EditTeamBody) body: EditTeamBody;
}
/** `identity.team.member-list`: a team plus paging. */
export class TeamPagedRequest extends TeamRequest {
  @IsOptional() @ValidateNested() @Type(() => ListQuery) query?: ListQuery;
}
export class TeamMemberRequest extends TeamRequest {
  @IsString() @MaxLength(255) username: string;
}
export class OrgMemberRequest extends OrgRequest {
  @IsString() @MaxLength(255) username: string;
}
export class SetPublicMemberRequest extends OrgMemberRequest {
  @IsBoolean() public: boolean;
}

/** Gitea's `OrganizationPermissions`: what one user may do in an organization. */
export interface OrganizationPermissionsDto {
  is_owner: boolean;
  is_admin: boolean;
  can_write: boolean;
  can_read: boolean;
  can_create_repository: boolean;
}

/** `identity.org.membership`: a user's standing in an organization, for access decisions in other services. */
export class OrgMembershipRequest {
  @IsInt() orgId: number;
  @IsInt() userId: number;
}
export interface OrgMembershipReply {
  isMember: boolean;
  isOwner: boolean;
  /** The teams the user is in, with what they grant. */
  teams: Array<{
    id: number; name: string; permission: TeamPermission; includesAllRepositories: boolean; canCreateOrgRepo: boolean;
    /** The units the team's permission applies to (Gitea's names, {@link TEAM_UNITS}); absent: none. */
    units?: string[];
    /** The access mode of each unit in `units` (`units_map` as the team's JSON shows it); absent: `permission` on all. */
    unitsMap?: Record<string, string>;
  }>;
}

/** The most teams one `identity.team.lookup` names or answers, and the most member ids it gives per team. */
export const TEAM_LOOKUP_MAX = 100;
export const TEAM_LOOKUP_MEMBERS_MAX = 1000;

/**
 * `identity.team.lookup` (internal; no actor): teams of one organization by name (case-insensitive) or id, and — with
 * `includingAll` — every team that reaches all its repositories; `withMembers` adds each team's member ids.
 */
export class TeamLookupRequest {
  @IsInt() orgId: number;
  @IsOptional() @IsArray() @ArrayMaxSize(TEAM_LOOKUP_MAX) @IsString({ each: true }) @MaxLength(255, { each: true })
  names?: string[];
  @IsOptional() @IsArray() @ArrayMaxSize(TEAM_LOOKUP_MAX) @IsInt({ each: true }) ids?: number[];
  @IsOptional() @IsBoolean() includingAll?: boolean;
  @IsOptional() @IsBoolean() withMembers?: boolean;
  /** Fill each `team.organization` (Gitea's pull-request JSON does; its review JSON does not). */
  @IsOptional() @IsBoolean() withOrganization?: boolean;
}
export interface TeamLookupReply {
  /** At most {@link TEAM_LOOKUP_MAX}, by id. */
  teams: Array<{
    team: TeamDto;
    /** With `withMembers`: the first {@link TEAM_LOOKUP_MEMBERS_MAX} members' ids, by id. */
    memberIds?: number[];
  }>;
}

/** `identity.org.standings`: every organization standing of one user. */
export class OrgStandingsRequest {
  @IsInt() userId: number;
}
export interface OrgStandingsReply {
  /** One entry per organization the user is a member of. */
  standings: Array<{ orgId: number } & OrgMembershipReply>;
}

export type { UserDto };
