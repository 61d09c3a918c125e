import { DomainError, ErrorCode, accessAtLeast, type ActorDto } from '@cairn/contracts';
import type { ViewScope } from './repo-views.js';

/** The actor, or UNAUTHENTICATED (Gitea's `reqToken` message). */
export function requireActor(actor: ActorDto | null | undefined): ActorDto {
  if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
  return actor;
}

/** May the actor change this issue or comment: write access, or its author. */
export function canModify(scope: Pick<ViewScope, 'actor' | 'access'>, posterId: number): boolean {
  return accessAtLeast(scope.access, 'write') || (!!scope.actor && scope.actor.id === posterId);
}
