import {
  DomainError, isWriterOrAuthor, issueUnitAccess, mayTalkWhenLocked, type AccessLevel, type ActorDto, type UnitAccess,
} from '@cairn/contracts';
import type { ViewScope } from '../../git-core/repositories/repo-views.js';

/** May the actor change this issue or comment: write access, or its author. */
export function canModify(scope: Pick<ViewScope, 'actor' | 'access'>, posterId: number): boolean {
  return isWriterOrAuthor(scope.access, scope.actor?.id, posterId);
}

/** Gitea's `comment_on_locked`: a lock freezes the conversation for readers; deleting one's own comment stays. */
export function assertMayComment(
  issue: { isLocked: boolean },
  scope: Pick<ViewScope, 'access'>,
  actor: ActorDto,
  action: 'comment' | 'edit comments',
): void {
  if (issue.isLocked && !mayTalkWhenLocked(scope.access, actor.isAdmin)) {
    throw DomainError.forbidden(`the issue is locked: only users with write access to the repository can ${action}`);
  }
}

// Gitea's `CanReadIssuesOrPulls(issue.IsPull)`: NOT_FOUND without read on that unit, and `access` becomes the unit's
// level for every later check of this request; `units` stays, so narrowing again gives the same answer.
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
