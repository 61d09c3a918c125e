import { DomainError, ErrorCode, type ActorDto } from '@cairn/contracts';

/** The actor of a request that needs one; anonymous → UNAUTHENTICATED (Gitea's "token is required"). */
export function requireActor(actor: ActorDto | null | undefined): ActorDto {
  if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
  return actor;
}

/** A message body that must be present (class-validator skips nested validation of an absent object). */
export function requireBody<T>(body: T | null | undefined): T {
  if (body === undefined || body === null) throw DomainError.invalid('invalid message', ['body should not be empty']);
  return body;
}
