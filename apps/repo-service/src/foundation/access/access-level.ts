import type { AccessLevel, CollaboratorPermission, RepoUnit, TeamPermission, UnitAccess, Visibility } from '@cairn/contracts';
import { ACCESS_LEVELS, REPO_UNITS } from '@cairn/contracts';

/** A user's standing in the organization that owns a repository (what `identity.org.membership` answers). */
export interface OrgStanding {
  isMember: boolean;
  isOwner: boolean;
  teams: ReadonlyArray<{
    id: number; permission: TeamPermission; includesAllRepositories: boolean;
    /** Each unit's mode (`repo.code` → `read`, …); units missing get none. Absent: `permission` on every unit. */
    unitsMap?: Record<string, string>;
  }>;
}

/** Everything access to one repository depends on. */
export interface AccessFacts {
  /** The user asking; null = anonymous. */
  user: { id: number; isAdmin: boolean } | null;
  repo: { ownerId: number; ownerKind: 'user' | 'organization' | string; isPrivate: boolean };
  /** The owner's visibility; unknown is treated as `public` (callers pass it whenever it can matter). */
  ownerVisibility?: Visibility;
  /** The user's collaboration mode on the repository, if any. */
  collaboration?: CollaboratorPermission | string | null;
  /** Organization repositories: the user's standing in the owning organization. */
  org?: OrgStanding | null;
  /** Teams given this repository explicitly (besides teams that include all repositories). */
  repoTeamIds?: ReadonlyArray<number>;
}

function rank(level: AccessLevel): number {
  return ACCESS_LEVELS.indexOf(level);
}

/** Whether a team reaches a repository: it includes all its organization's repositories, or was given this one. */
export function teamReachesRepo(team: { includesAllRepositories: boolean; id: number }, grantedTeamIds: ReadonlySet<number>): boolean {
  return team.includesAllRepositories || grantedTeamIds.has(team.id);
}

/** The stronger of two access levels. */
export function maxAccess(a: AccessLevel, b: AccessLevel): AccessLevel {
  return rank(a) >= rank(b) ? a : b;
}

/** A stored or sent level, or `none` when absent or unknown. */
export function asLevel(mode: string | null | undefined): AccessLevel {
  return (ACCESS_LEVELS as readonly string[]).includes(mode ?? '') ? (mode as AccessLevel) : 'none';
}

/**
 * A user's access to a repository, as Gitea computes it (`GetUserRepoPermission`):
 * - anonymous: read on public repositories of public owners, else none;
 * - an owner the user may not see (limited owners for anonymous, private ones for non-members) hides even public
 *   repositories, unless the user collaborates on the repository;
 * - site administrators and the owner: owner;
 * - otherwise the strongest of: the collaboration mode; for organization repositories, owner for organization
 *   owners and the permission of each team that includes all repositories or was given this one; and read on any
 *   public repository.
 * With `unit`, a team counts with its mode for that unit (Gitea's per-unit team access); without, with its permission.
 */
export function computeAccess(f: AccessFacts, unit?: RepoUnit): AccessLevel {
  const { user, repo } = f;
  const visibility = f.ownerVisibility ?? 'public';
  if (!user) return repo.isPrivate || visibility !== 'public' ? 'none' : 'read';

  const collaboration = asLevel(f.collaboration);
  const isOrg = repo.ownerKind === 'organization';
  const ownerVisible =
    user.isAdmin ||
    visibility !== 'private' ||
    user.id === repo.ownerId ||
    (isOrg && (f.org?.isMember ?? false));
  if (!ownerVisible && collaboration === 'none') return 'none';

  if (user.isAdmin || user.id === repo.ownerId) return 'owner';

  let level = collaboration;
  if (isOrg && f.org) {
    if (f.org.isOwner) return 'owner';
    const granted = new Set(f.repoTeamIds ?? []);
    for (const team of f.org.teams) {
      if (teamReachesRepo(team, granted)) level = maxAccess(level, teamLevel(team, unit));
    }
  }
  if (!repo.isPrivate) level = maxAccess(level, 'read');
  return level;
}

/** What a team gives on one unit (its `units_map` entry; none for a unit it lacks), or overall (its permission). */
function teamLevel(team: OrgStanding['teams'][number], unit: RepoUnit | undefined): AccessLevel {
  if (!unit || !team.unitsMap) return asLevel(team.permission);
  return asLevel(team.unitsMap[`repo.${unit}`]);
}

/** The units whose access differs from the repository-wide `access` (only team `units_map`s make them differ). */
export function computeUnitAccess(f: AccessFacts, access: AccessLevel): UnitAccess | undefined {
  if (!f.org?.teams.some((t) => t.unitsMap)) return undefined;
  const out: UnitAccess = {};
  for (const unit of REPO_UNITS) {
    const level = computeAccess(f, unit);
    if (level !== access) out[unit] = level;
  }
  return Object.keys(out).length ? out : undefined;
}
