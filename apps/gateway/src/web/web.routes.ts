import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import {
  DomainError, ErrorCode, PullSubjects, httpStatusForErrorCode,
  type ActorDto, type PullRequestDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, JsonLogger, LazyRedis, RpcClient, type CommonSettings } from '@cairn/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resolveRepoAccess } from '../access/repo-access.guard.js';
import { readCredentials } from '../auth/credentials.js';
import { resolveCredentials } from '../auth/resolve-credentials.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../config/gateway-settings.js';
import { setRetryAfter } from '../http/retry-after.js';
import { escapeHtml, renderMergeBox, renderPullPage } from './pull-page.js';
import { SessionStore } from './core/session-store.js';
import { anonymousMustSignIn } from './core/sign-in-policy.js';
import { registerStaticFiles } from './core/static-files.js';
import { createViews } from './core/views.js';
import { WebKit } from './core/web-kit.js';
import { WEB_AREAS } from './web-areas.js';

interface PullParams {
  owner: string;
  repo: string;
  index: string;
}

/**
 * The web pages the gateway serves outside `/api/v1`: a pull request's page and its merge-box fragment (Gitea's
 * `/{owner}/{repo}/pulls/{index}` and `…/merge_box`). Both are views: a delayed mergeability check is queued at once,
 * and the page's merge box reloads itself every 2 s while the check runs. Authentication is the API's (token,
 * Basic), with the same repository access and two-factor policy; a 401 never challenges for Basic credentials.
 */
export function registerWebRoutes(fastify: FastifyInstance, app: INestApplicationContext): void {
  const rpc = app.get(RpcClient);
  const settings = app.get<GatewaySettings>(GATEWAY_SETTINGS);
  const common = app.get<CommonSettings>(COMMON_SETTINGS);
  const redis = new LazyRedis(common.redisUrl);
  fastify.addHook('onClose', () => redis.close());
  registerStaticFiles(fastify);
  void fastify.register(async (scope) => {
    // Forms post url-encoded bodies; only web routes (this scope) parse them — the API stays JSON-only.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body: string, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body)));
    });
    const web = new WebKit(scope, {
      rpc,
      settings,
      common,
      store: new SessionStore(redis, common.queuePrefix),
      views: createViews(),
      logger: new JsonLogger('gateway-web'),
    });
    for (const register of WEB_AREAS) register(web);
    web.registerNotFoundPage();
  });
  const pages = new PullPages(rpc, settings);
  fastify.get<{ Params: PullParams }>('/:owner/:repo/pulls/:index', (req, reply) => pages.page(req, reply));
  fastify.get<{ Params: PullParams }>('/:owner/:repo/pulls/:index/merge_box', (req, reply) => pages.mergeBox(req, reply));
}

class PullPages {
  constructor(
    private readonly rpc: RpcClient,
    private readonly settings: GatewaySettings,
  ) {}

  async page(req: FastifyRequest<{ Params: PullParams }>, reply: FastifyReply): Promise<void> {
    await this.serve(req, reply, (pr, p) => {
      const nonce = randomBytes(16).toString('base64');
      reply.header(
        'content-security-policy',
        `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'`,
      );
      return renderPullPage(pr, p.owner, p.repo, nonce);
    });
  }

  async mergeBox(req: FastifyRequest<{ Params: PullParams }>, reply: FastifyReply): Promise<void> {
    await this.serve(req, reply, (pr) => renderMergeBox(pr));
  }

  private async serve(
    req: FastifyRequest<{ Params: PullParams }>,
    reply: FastifyReply,
    render: (pr: PullRequestDto, params: PullParams) => string,
  ): Promise<void> {
    reply.header('x-content-type-options', 'nosniff').header('cache-control', 'no-store');
    try {
      const { owner, repo, index } = req.params;
      if (!/^\d{1,15}$/.test(index) || Number(index) < 1) throw DomainError.notFound('pull request not found');
      const actor = await this.authenticate(req);
      if (!actor && anonymousMustSignIn(this.settings.requireSigninView, req.url, false)) {
        await reply.status(303).header('location', `/user/login?redirect_to=${encodeURIComponent(req.url)}`).send();
        return;
      }
      const ctx = await resolveRepoAccess(this.rpc, this.settings, actor, owner, repo);
      const pr = await this.rpc.send(PullSubjects.get, { ...ctx, index: Number(index), view: true });
      await reply.type('text/html; charset=utf-8').send(render(pr, { owner: ctx.repo.ownerName, repo: ctx.repo.name, index }));
    } catch (err) {
      const status = err instanceof DomainError ? httpStatusForErrorCode(err.code) : 500;
      const message = err instanceof DomainError && status < 500 ? err.message : 'internal server error';
      // No `WWW-Authenticate: Basic` here: a browser would prompt and then send the cached password with every
      // request to this site, cross-site ones included (CSRF). Only git's smart HTTP challenges.
      setRetryAfter(reply, err);
      await reply
        .status(status === 400 ? 404 : status)
        .type('text/html; charset=utf-8')
        .send(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>${status}</title></head><body><h1>${status}</h1><p>${escapeHtml(message)}</p></body></html>`);
    }
  }

  private async authenticate(req: FastifyRequest): Promise<ActorDto | null> {
    const presented = readCredentials(req);
    if (presented === 'malformed') throw new DomainError(ErrorCode.UNAUTHENTICATED, 'malformed Authorization header');
    if (!presented.request) return null;
    const reply = await resolveCredentials(this.rpc, this.settings, presented.request);
    return reply.actor;
  }
}
