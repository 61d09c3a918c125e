import type { ActorDto } from '@cairn/contracts';

/** Account visibilities a viewer may see without any relation to the account (Gitea's rules). */
export function visibleToViewer(viewer: ActorDto | null): string[] {
  if (!viewer) return ['public'];
  if (viewer.isAdmin) return ['public', 'limited', 'private'];
  return ['public', 'limited'];
}

/** Whether a user account is visible: private users only to themselves and site admins. */
export function canSeeUser(viewer: ActorDto | null, user: { id: number; visibility: string }): boolean {
  if (user.visibility === 'public') return true;
  if (!viewer) return false;
  if (user.visibility === 'limited' || viewer.isAdmin || viewer.id === user.id) return true;
  return false;
}

/** Whether an organization is visible: private ones only to members and site admins; limited to signed-in users. */
export function canSeeOrg(viewer: ActorDto | null, org: { visibility: string }, viewerIsMember: boolean): boolean {
  if (org.visibility === 'public') return true;
  if (!viewer) return false;
  if (org.visibility === 'limited' || viewer.isAdmin || viewerIsMember) return true;
  return false;
}
