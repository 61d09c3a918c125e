import type { AccessLevel, CollaboratorPermission, TeamPermission, Visibility } from '@cairn/contracts';
import { ACCESS_LEVELS } from '@cairn/contracts';

/** A user's standing in the organization that owns a repository (what `identity.org.membership` answers). */
export interface OrgStanding {
  isMember: boolean;
  isOwner: boolean;
  teams: ReadonlyArray<{ id: number; permission: TeamPermission; includesAllRepositories: boolean }>;
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

function asLevel(mode: string | null | undefined): AccessLevel {
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
 */
export function computeAccess(f: AccessFacts): AccessLevel {
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
      if (teamReachesRepo(team, granted)) level = maxAccess(level, asLevel(team.permission));
    }
  }
  if (!repo.isPrivate) level = maxAccess(level, 'read');
  return level;
}
