import { accessAtLeast } from '@cairn/contracts';
import type { RepoContext } from '../../access/repo-access.guard.js';

/** repo-service's rule (write access on the unit, or a site admin), only to hide what would be refused. */
export function canWriteTracker(ctx: RepoContext): boolean {
  return ctx.actor !== null && (accessAtLeast(ctx.access, 'write') || ctx.actor.isAdmin);
}
