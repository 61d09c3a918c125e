import type { ActorDto } from '@cairn/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What the pull-request pages need from the web foundation: who is signed in, the CSRF token for forms and its
 * check on POST, and the layout a page body is rendered into. One implementation per foundation (sessions).
 */
export interface WebHost {
  /** The signed-in actor, or null; throws a `DomainError` when the instance requires sign-in to view. */
  actor(req: FastifyRequest): Promise<ActorDto | null>;
  /** The CSRF token to embed in this request's forms ('' when nobody is signed in). */
  csrfToken(req: FastifyRequest): Promise<string>;
  /** Throws a `DomainError` (403) unless the form's `_csrf` field matches the session. */
  verifyCsrf(req: FastifyRequest, token: unknown): Promise<void>;
  /** Sends a full page: `body` inside the site layout. */
  sendPage(req: FastifyRequest, reply: FastifyReply, page: { title: string; body: string }): Promise<void>;
  /** Sends an error page for `err` (404 for anything the user may not see). */
  sendError(req: FastifyRequest, reply: FastifyReply, err: unknown): Promise<void>;
}
