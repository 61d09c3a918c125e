import { DomainError, ErrorCode, accessAtLeast, type ActorDto } from '@cairn/contracts';
import type { ViewScope } from './repo-views.js';

/** The actor, or UNAUTHENTICATED (Gitea's `reqToken` message). */
export function requireActor(actor: ActorDto | null | undefined): ActorDto {
  if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
  return actor;
}

/** Write access to the repository (Gitea's `reqRepoWriter` for issues and pull requests), else 403. */
export function requireWriter(scope: Pick<ViewScope, 'access'>, what: string): void {
  if (!accessAtLeast(scope.access, 'write')) throw DomainError.forbidden(`write permission is required to ${what}`);
}

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
