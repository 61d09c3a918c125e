import { twoFactorDeniesRepoAccess, type ActorDto, type OrgMembershipReply, type TwoFactorPolicy } from '@cairn/contracts';

/**
 * What a signed-in user can reach across organizations, flattened for queries: organizations where they see every
 * repository (owners, or a team with all repositories), teams that may have been given single repositories, and
 * organizations they are a member of.
 */
export interface ViewerScope {
  /** null = anonymous. */
  userId: number | null;
  isAdmin: boolean;
  /** Organizations whose every repository the user can read. */
  fullOrgIds: number[];
  /** Teams whose explicitly given repositories the user can read. */
  teamIds: number[];
  /** Organizations the user is a member of. */
  memberOrgIds: number[];
  /**
   * Signed in, but must enrol in two-factor first (`[security] TWO_FACTOR_AUTH = enforced`): sees no private
   * repository at all — not even their own — only what the public may see.
   */
  mustEnrolTwoFactor: boolean;
}

/** The scope of an actor, given their standing in each organization and the instance's two-factor policy. */
export function viewerScope(
  actor: ActorDto | null,
  standings: Map<number, OrgMembershipReply>,
  twoFactorPolicy: TwoFactorPolicy,
): ViewerScope {
  const scope: ViewerScope = {
    userId: actor?.id ?? null,
    isAdmin: actor?.isAdmin ?? false,
    fullOrgIds: [],
    teamIds: [],
    memberOrgIds: [],
    mustEnrolTwoFactor: twoFactorDeniesRepoAccess(twoFactorPolicy, actor),
  };
  if (!actor) return scope;
  for (const [orgId, s] of standings) {
    if (s.isMember || s.isOwner) scope.memberOrgIds.push(orgId);
    const granting = s.teams.filter((t) => t.permission !== 'none');
    if (s.isOwner || granting.some((t) => t.includesAllRepositories)) scope.fullOrgIds.push(orgId);
    scope.teamIds.push(...granting.filter((t) => !t.includesAllRepositories).map((t) => t.id));
  }
  return scope;
}
