import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { DomainError, ErrorCode, httpStatusForErrorCode, type ActorDto } from '@cairn/contracts';
import type { RpcClient } from '@cairn/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCredentials } from '../../auth/credentials.js';
import { resolveCredentials } from '../../auth/resolve-credentials.js';
import type { GatewaySettings } from '../../config/gateway-settings.js';
import { setRetryAfter } from '../../http/retry-after.js';
import { escapeHtml } from './html.js';
import type { WebHost } from './web-host.js';

// Read from the source tree (the same relative path from `src/` and `dist/`): static files are not compiled.
const MERGE_BOX_SCRIPT = readFileSync(new URL('../../../src/web/pulls/static/merge-box.js', import.meta.url), 'utf8');

/**
 * The pages' host until web sessions exist: the API's credentials (token, Basic) identify the reader, and forms are
 * refused (no session, so no CSRF secret to check them against).
 */
export class CredentialsWebHost implements WebHost {
  constructor(
    private readonly rpc: RpcClient,
    private readonly settings: GatewaySettings,
  ) {}

  async actor(req: FastifyRequest): Promise<ActorDto | null> {
    const presented = readCredentials(req);
    if (presented === 'malformed') throw new DomainError(ErrorCode.UNAUTHENTICATED, 'malformed Authorization header');
    const actor = presented.request ? (await resolveCredentials(this.rpc, this.settings, presented.request)).actor : null;
    if (!actor && this.settings.requireSigninView === 'strict') {
      throw new DomainError(ErrorCode.UNAUTHENTICATED, 'sign in to view this page');
    }
    return actor;
  }

  csrfToken(): Promise<string> {
    return Promise.resolve('');
  }

  verifyCsrf(): Promise<void> {
    return Promise.reject(DomainError.forbidden('forms need a web session'));
  }

  async sendPage(_req: FastifyRequest, reply: FastifyReply, page: { title: string; body: string }): Promise<void> {
    const nonce = randomBytes(16).toString('base64');
    await reply
      .header('content-security-policy', `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'`)
      .header('x-content-type-options', 'nosniff')
      .type('text/html; charset=utf-8')
      .send(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title></head>` +
        `<body><main>${page.body}</main><script nonce="${nonce}">${MERGE_BOX_SCRIPT}</script></body></html>`);
  }

  async sendError(_req: FastifyRequest, reply: FastifyReply, err: unknown): Promise<void> {
    const status = err instanceof DomainError ? httpStatusForErrorCode(err.code) : 500;
    const message = err instanceof DomainError && status < 500 ? err.message : 'internal server error';
    // Never `WWW-Authenticate: Basic`: a browser would cache the password and send it cross-site (CSRF).
    setRetryAfter(reply, err);
    await reply
      .status(status === 400 ? 404 : status)
      .type('text/html; charset=utf-8')
      .send(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${status}</title></head><body><h1>${status}</h1><p>${escapeHtml(message)}</p></body></html>`);
  }
}
