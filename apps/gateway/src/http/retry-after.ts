import { DomainError } from '@cairn/contracts';
import type { FastifyReply } from 'fastify';

/** Sets `Retry-After` (seconds) when a refusal says when to try again (a 429 from the sign-in throttle). */
export function setRetryAfter(reply: FastifyReply, err: unknown): void {
  if (err instanceof DomainError && err.retryAfterSeconds !== undefined) {
    void reply.header('retry-after', String(err.retryAfterSeconds));
  }
}
