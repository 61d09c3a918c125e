import { TEAM_UNITS, type OrganizationDto, type TeamDto, type TeamPermission, type Visibility } from '@cairn/contracts';
import { avatarUrl } from '../users/user.mapper.js';
import type { OrgRow, TeamRow } from './orgs.repository.js';

export function toOrganizationDto(row: OrgRow, rootUrl: string): OrganizationDto {
  return {
    id: row.id,
    name: row.name,
    username: row.name,
    full_name: row.fullName,
    email: row.email,
    avatar_url: avatarUrl(rootUrl, row),
    description: row.description,
    website: row.website,
    location: row.location,
    visibility: row.visibility as Visibility,
    repo_admin_change_team_access: row.repoAdminChangeTeamAccess,
  };
}

/** The per-unit modes a team row stores (a JSON object of strings; anything else counts as none). */
export function unitsMapOf(row: TeamRow): Record<string, string> {
  const v = row.unitsMap;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Gitea's `Team`; `organization` is filled where Gitea fills it (get/create, not lists). */
export function toTeamDto(row: TeamRow, org: OrganizationDto | null): TeamDto {
  const units = row.permission === 'owner' || row.permission === 'admin' ? [...TEAM_UNITS] : row.units;
  const perUnit = row.permission === 'owner' || row.permission === 'admin' ? {} : unitsMapOf(row);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    organization: org,
    includes_all_repositories: row.includesAllRepositories,
    permission: row.permission as TeamPermission,
    units,
    units_map: Object.fromEntries(units.map((u) => [u, perUnit[u] ?? row.permission])),
    can_create_org_repo: row.canCreateOrgRepo,
  };
}
