import { Type } from 'class-transformer';
import {
  IsBoolean, IsIn, IsInt, IsOptional, IsString, MaxLength, MinLength, ValidateNested, IsArray, ArrayMaxSize,
  registerDecorator, IsEmail, IsUrl, ValidateIf,
} from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import { ActorRequest, VISIBILITIES, type Visibility, type UserDto } from './user.dto.js';

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

export const TEAM_PERMISSIONS = ['none', 'read', 'write', 'admin', 'owner'] as const;
export type TeamPermission = (typeof TEAM_PERMISSIONS)[number];

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

export class CreateOrgBody {
  @IsString() @MinLength(1) @MaxLength(40) username: string;
  @IsOptional() @IsString() @MaxLength(255) full_name?: string;
  @IsOptional() @IsString() @MaxLength(255) email?: string;
  @IsOptional() @IsString() @MaxLength(255) description?: string;
  @IsOptional() @IsString() @MaxLength(255) website?: string;
  @IsOptional() @IsString() @MaxLength(255) location?: string;
  /** Empty: public. Gitea's binding accepts it, and its Go SDK always sends the field. */
  @IsOptional() @IsIn(['', ...VISIBILITIES]) visibility?: Visibility | '';
  @IsOptional() @IsBoolean() repo_admin_change_team_access?: boolean;
}

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

export const TEAM_UNITS = [
  'repo.code', 'repo.issues', 'repo.ext_issues', 'repo.wiki', 'repo.ext_wiki', 'repo.pulls', 'repo.releases',
  'repo.projects', 'repo.packages', 'repo.actions',
] as const;

export const UNIT_ACCESS_MODES = ['none', 'read', 'write', 'admin'] as const;

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

export class CreateTeamBody {
  @IsString() @MinLength(1) @MaxLength(255) name: string;
  @IsOptional() @IsString() @MaxLength(255) description?: string;
  @IsOptional() @IsBoolean() includes_all_repositories?: boolean;
  /** Gitea rejects `owner` and `none` here. */
  @IsOptional() @IsIn(['read', 'write', 'admin']) permission?: 'read' | 'write' | 'admin';
  @IsOptional() @IsArray() @ArrayMaxSize(32) @IsIn(TEAM_UNITS, { each: true }) units?: string[];
  @IsOptional() @IsUnitsMap() units_map?: Record<string, string>;
  @IsOptional() @IsBoolean() can_create_org_repo?: boolean;
}

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
  @IsOptional() @IsString() @MaxLength(255) username?: string;
  @ValidateNested() @Type(() => CreateOrgBody) body: CreateOrgBody;
}
export class OrgRequest extends ActorRequest {
  @IsString() @MaxLength(255) org: string;
}
export class OrgListRequest extends ActorRequest {
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

export interface OrganizationPermissionsDto {
  is_owner: boolean;
  is_admin: boolean;
  can_write: boolean;
  can_read: boolean;
  can_create_repository: boolean;
}

export class OrgMembershipRequest {
  @IsInt() orgId: number;
  @IsInt() userId: number;
}
export interface OrgMembershipReply {
  isMember: boolean;
  isOwner: boolean;
  teams: Array<{
    id: number; name: string; permission: TeamPermission; includesAllRepositories: boolean; canCreateOrgRepo: boolean;
    units?: string[];
    unitsMap?: Record<string, string>;
  }>;
}

export const TEAM_LOOKUP_MAX = 100;
export const TEAM_LOOKUP_MEMBERS_MAX = 1000;

export class TeamLookupRequest {
  @IsInt() orgId: number;
  @IsOptional() @IsArray() @ArrayMaxSize(TEAM_LOOKUP_MAX) @IsString({ each: true }) @MaxLength(255, { each: true })
  names?: string[];
  @IsOptional() @IsArray() @ArrayMaxSize(TEAM_LOOKUP_MAX) @IsInt({ each: true }) ids?: number[];
  @IsOptional() @IsBoolean() includingAll?: boolean;
  @IsOptional() @IsBoolean() withMembers?: boolean;
  /** Gitea's pull-request JSON fills it; its review JSON does not. */
  @IsOptional() @IsBoolean() withOrganization?: boolean;
}
export interface TeamLookupReply {
  teams: Array<{
    team: TeamDto;
    memberIds?: number[];
  }>;
}

export class OrgStandingsRequest {
  @IsInt() userId: number;
}
export interface OrgStandingsReply {
  standings: Array<{ orgId: number } & OrgMembershipReply>;
}

export type { UserDto };
