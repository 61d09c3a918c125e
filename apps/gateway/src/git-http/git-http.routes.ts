import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { pipeline } from 'node:stream/promises';
import { Logger, type INestApplicationContext } from '@nestjs/common';
import {
  DomainError, ErrorCode, INTERNAL_HEADERS, httpStatusForErrorCode, internalGitPath, type InternalGitEndpoint,
} from '@cairn/contracts';
import { COMMON_SETTINGS, CORRELATION_HEADER, RpcClient, traceHeaders, type CommonSettings } from '@cairn/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RepoContext } from '../access/repo-access.guard.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../config/gateway-settings.js';
import { setRetryAfter } from '../http/retry-after.js';
import { authorizeGitHttp, GitHttpRefusal, type GitHttpService } from './git-http-auth.js';

/** Request headers git sends that repo-service needs; nothing else (no credentials) is forwarded. */
const FORWARDED_REQUEST_HEADERS = ['content-type', 'content-encoding', 'content-length', 'git-protocol', 'accept'];
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'cache-control', 'expires', 'pragma'];
const GIT_REQUEST_TYPES = ['application/x-git-upload-pack-request', 'application/x-git-receive-pack-request'];

type Params = { owner: string; repo: string };
type Kind = InternalGitEndpoint;

/** `repo.git` and `repo` name the same repository, as in Gitea. */
function repoName(raw: string): string {
  return raw.toLowerCase().endsWith('.git') ? raw.slice(0, -4) : raw;
}

// Authenticates and authorises ({@link authorizeGitHttp}), then streams to repo-service's internal endpoint and back,
// never buffering the pack.
export class GitHttpProxy {
  private readonly logger = new Logger('GitHttp');
  private readonly base: URL;
  private readonly agent: HttpAgent;

  constructor(
    private readonly rpc: RpcClient,
    private readonly settings: GatewaySettings,
    private readonly common: CommonSettings,
  ) {
    this.base = new URL(common.repoInternalUrl.endsWith('/') ? common.repoInternalUrl : `${common.repoInternalUrl}/`);
    this.agent =
      this.base.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  }

  async handle(req: FastifyRequest, reply: FastifyReply, kind: Kind): Promise<void> {
    const { owner, repo } = req.params as Params;
    let service: GitHttpService;
    if (kind === 'info/refs') {
      const requested = (req.query as Record<string, unknown>)?.service;
      if (requested !== 'git-upload-pack' && requested !== 'git-receive-pack') {
        return this.refuse(reply, new GitHttpRefusal(403, 'dumb HTTP protocol is not supported: use a smart git client'));
      }
      service = requested === 'git-upload-pack' ? 'upload-pack' : 'receive-pack';
    } else {
      service = kind === 'git-upload-pack' ? 'upload-pack' : 'receive-pack';
    }
    let ctx: RepoContext;
    try {
      ctx = await authorizeGitHttp(this.rpc, this.settings, req, owner, repoName(repo), service);
    } catch (err) {
      return this.refuse(reply, err);
    }
    return this.forward(req, reply, kind, service, ctx);
  }

  private refuse(reply: FastifyReply, err: unknown): void {
    let status = 500;
    let message = 'internal server error';
    if (err instanceof GitHttpRefusal) {
      status = err.status;
      message = err.message;
      if (err.askForCredentials) void reply.header('www-authenticate', 'Basic realm="Cairn"');
    } else if (err instanceof DomainError && err.code !== ErrorCode.INTERNAL) {
      status = httpStatusForErrorCode(err.code);
      message = err.message;
      setRetryAfter(reply, err);
    } else {
      this.logger.error(`git http authorisation failed: ${(err as Error)?.message ?? String(err)}`);
    }
    void reply.status(status).type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(`${message}\n`);
  }

  private forward(req: FastifyRequest, reply: FastifyReply, kind: Kind, service: GitHttpService, ctx: RepoContext): void {
    // Relative to the base URL, which may carry a path of its own.
    const target = new URL(internalGitPath(ctx.repo.ownerName, ctx.repo.name, kind).replace(/^\//, ''), this.base);
    if (kind === 'info/refs') target.searchParams.set('service', `git-${service}`);

    const headers: OutgoingHttpHeaders = {
      [INTERNAL_HEADERS.token]: this.common.internalToken,
      [INTERNAL_HEADERS.repoId]: String(ctx.repo.id),
      [CORRELATION_HEADER]: String(req.id),
      ...traceHeaders(),
    };
    if (ctx.actor) {
      headers[INTERNAL_HEADERS.actorId] = String(ctx.actor.id);
      headers[INTERNAL_HEADERS.actorLogin] = ctx.actor.login;
    }
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = req.headers[name];
      if (value !== undefined) headers[name] = value;
    }

    reply.hijack();
    const raw = reply.raw;
    const send = this.base.protocol === 'https:' ? httpsRequest : httpRequest;
    const upstream = send(target, { method: req.method, headers, agent: this.agent });
    upstream.on('response', (res: IncomingMessage) => {
      const out: OutgoingHttpHeaders = { [CORRELATION_HEADER]: String(req.id) };
      for (const name of FORWARDED_RESPONSE_HEADERS) {
        const value = res.headers[name];
        if (value !== undefined) out[name] = value;
      }
      raw.writeHead(res.statusCode ?? 502, out);
      pipeline(res, raw).catch(() => raw.destroy());
    });
    upstream.on('error', (err: Error) => {
      if (!raw.headersSent) {
        this.logger.error(`repo-service git endpoint unreachable: ${err.message}`);
        raw.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' });
        raw.end('repository service unavailable\n');
      } else {
        raw.destroy();
      }
    });
    // The client went away: stop the upstream exchange (repo-service lets a started push finish on its own).
    raw.on('close', () => {
      if (!raw.writableFinished) upstream.destroy();
    });
    if (req.method === 'POST') {
      pipeline(req.raw, upstream).catch(() => upstream.destroy());
    } else {
      upstream.end();
    }
  }
}

/** Git's request bodies are left unparsed so they can be streamed. */
export function registerGitHttpRoutes(fastify: FastifyInstance, app: INestApplicationContext): void {
  mountGitHttpRoutes(
    fastify,
    new GitHttpProxy(app.get(RpcClient), app.get<GatewaySettings>(GATEWAY_SETTINGS), app.get<CommonSettings>(COMMON_SETTINGS)),
  );
}

/** The routes themselves, in their own Fastify scope (the git content types are known only there). */
export function mountGitHttpRoutes(fastify: FastifyInstance, proxy: GitHttpProxy): void {
  void fastify.register(async (scope) => {
    scope.addContentTypeParser(GIT_REQUEST_TYPES, (_req, _payload, done) => done(null, undefined));
    scope.get('/:owner/:repo/info/refs', (req, reply) => proxy.handle(req, reply, 'info/refs'));
    scope.post('/:owner/:repo/git-upload-pack', (req, reply) => proxy.handle(req, reply, 'git-upload-pack'));
    scope.post('/:owner/:repo/git-receive-pack', (req, reply) => proxy.handle(req, reply, 'git-receive-pack'));
  });
}
