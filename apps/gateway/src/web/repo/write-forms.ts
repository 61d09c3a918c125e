import { DomainError, ErrorCode, mayTriage, meetsSubjectAccess, type RepoAccessSubject } from '@cairn/contracts';
import type { RepoContext } from '../../access/repo-access.guard.js';

// Which write forms a page shows, by the rules the services apply (REPO_ACCESS_NEEDS, the tracker's rules): the
// pages only hide what would be refused, and the services decide again.

/** A write `operation`'s form: its `REPO_ACCESS_NEEDS` level (or a site admin), not in an archived repository. */
export function canWrite(ctx: RepoContext, operation: RepoAccessSubject): boolean {
  return ctx.actor !== null && !ctx.repo.archived && (meetsSubjectAccess(ctx.access, operation) || ctx.actor.isAdmin);
}

/** The same rule for a submitted form: 403 (or 423 on an archived repository), as the API's guard answers. */
export function requireWrite(ctx: RepoContext, operation: RepoAccessSubject): void {
  if (ctx.repo.archived) throw new DomainError(ErrorCode.LOCKED, 'repo is archived');
  if (!canWrite(ctx, operation)) throw DomainError.forbidden('you need write access to this repository');
}

/** The label, milestone and assignee pickers: where repo-service would apply them (`mayTriage`). */
export function canTriage(ctx: RepoContext): boolean {
  return ctx.actor !== null && (mayTriage(ctx.access) || ctx.actor.isAdmin);
}
