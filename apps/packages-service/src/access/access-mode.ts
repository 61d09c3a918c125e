import {
  accessAtLeast, type AccessLevel, type ActorDto, type OrgMembershipReply, type OwnerDto,
} from '@cairn/contracts';

export const PACKAGES_UNIT = 'repo.packages';

export interface AccessFacts {
  /** `[service] REQUIRE_SIGNIN_VIEW = true`: anonymous callers get nothing. */
  requireSignin: boolean;
  /** The actor's standing in the owning organization (null: the owner is a user, or the caller is anonymous). */
  membership: OrgMembershipReply | null;
  /** `TWO_FACTOR_AUTH = enforced` and not enrolled: the public's view, read only. */
  mustEnrolTwoFactor?: boolean;
}

const stronger = (a: AccessLevel, b: AccessLevel): AccessLevel => (accessAtLeast(a, b) ? a : b);

/** Gitea's `determineAccessMode`, for every registry and the API (cases: docs/architecture.md, "Access"). */
export function determineAccessMode(actor: ActorDto | null, owner: OwnerDto, facts: AccessFacts): AccessLevel {
  if (actor && facts.mustEnrolTwoFactor) {
    return determineAccessMode(null, owner, { requireSignin: false, membership: null }) === 'none' ? 'none' : 'read';
  }
  if (!actor && facts.requireSignin) return 'none';
  if (actor?.isAdmin) return 'owner';
  if (owner.kind === 'user') {
    if (actor && actor.id === owner.id) return 'owner';
    if (owner.visibility === 'public') return 'read';
    return actor && owner.visibility === 'limited' ? 'read' : 'none';
  }
  let mode: AccessLevel = 'none';
  const membership = actor ? facts.membership : null;
  if (membership?.isOwner) return 'owner';
  for (const team of membership?.teams ?? []) {
    if (team.permission === 'owner') return 'owner';
    if (team.permission === 'admin' || team.units?.includes(PACKAGES_UNIT)) mode = stronger(mode, team.permission);
  }
  const visible =
    owner.visibility === 'public' || (actor !== null && owner.visibility === 'limited') || membership?.isMember === true;
  return visible ? stronger(mode, 'read') : mode;
}

/** Whether a token's scopes allow a package operation (`read:package` / `write:package`; `all` allows everything). */
export function tokenScopeAllows(actor: ActorDto, need: 'read' | 'write'): boolean {
  if (actor.via !== 'token') return true;
  const s = actor.scopes;
  return s.includes('all') || s.includes('write:package') || (need === 'read' && s.includes('read:package'));
}
