import { accessAtLeast } from '@cairn/contracts';
import type { RepoContext } from '../../access/repo-access.guard.js';

/**
 * Whether to show the issue tracker's write forms (lock, labels, milestones, assignees): repo-service's rule — write
 * access on the unit, or a site admin. Only to hide what would be refused; the service decides.
 */
export function canWriteTracker(ctx: RepoContext): boolean {
  return ctx.actor !== null && (accessAtLeast(ctx.access, 'write') || ctx.actor.isAdmin);
}
