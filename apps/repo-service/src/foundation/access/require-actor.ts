import { DomainError, ErrorCode, type ActorDto } from '@cairn/contracts';

/** The actor, or UNAUTHENTICATED (Gitea's `reqToken` message). */
export function requireActor(actor: ActorDto | null | undefined): ActorDto {
  if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
  return actor;
}
