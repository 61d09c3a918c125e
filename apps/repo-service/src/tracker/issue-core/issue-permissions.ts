import {
  DomainError, accessAtLeast, issueUnitAccess, type AccessLevel, type ActorDto, type UnitAccess,
} from '@cairn/contracts';
import type { ViewScope } from '../../git-core/repositories/repo-views.js';

/** May the actor change this issue or comment: write access, or its author. */
export function canModify(scope: Pick<ViewScope, 'actor' | 'access'>, posterId: number): boolean {
  return accessAtLeast(scope.access, 'write') || (!!scope.actor && scope.actor.id === posterId);
}

/**
 * While an issue is locked only writers and site admins may add or edit comments (Gitea's `comment_on_locked`): the
 * lock freezes the conversation, including what readers wrote before it. Deleting one's own comment stays allowed, as
 * in Gitea (it adds nothing to the conversation).
 */
export function assertMayComment(
  issue: { isLocked: boolean },
  scope: Pick<ViewScope, 'access'>,
  actor: ActorDto,
  action: 'comment' | 'edit comments',
): void {
  if (issue.isLocked && !accessAtLeast(scope.access, 'write') && !actor.isAdmin) {
    throw DomainError.forbidden(`the issue is locked: only users with write access to the repository can ${action}`);
  }
}

/**
 * Judges the rest of a request on the issue tracker's shared routes by the unit of the issue it is about (Gitea's
 * `CanReadIssuesOrPulls(issue.IsPull)`): NOT_FOUND when the actor may not read that unit (a team's `units_map`),
 * and the request's `access` becomes that unit's level, so every later check in this request uses it. The request
 * is this call's own message; `units` is left as it was, so narrowing again gives the same answer.
 */
export function narrowToIssueUnit(req: { access: AccessLevel; units?: UnitAccess }, issue: { isPull: boolean }, notFound: string): void {
  const access = issueUnitAccess(req, issue.isPull);
  if (access === 'none') throw DomainError.notFound(notFound);
  req.access = access;
}

/** The list filter `isPull` for a reader of the issue tracker: the units they may not read are left out. */
export function readableIssueKinds(req: { access: AccessLevel; units?: UnitAccess }, wanted: boolean | undefined): boolean | undefined | null {
  const issues = issueUnitAccess(req, false) !== 'none';
  const pulls = issueUnitAccess(req, true) !== 'none';
  if (wanted === undefined) return issues && pulls ? undefined : issues ? false : pulls ? true : null;
  return (wanted ? pulls : issues) ? wanted : null;
}
