import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Logger, type INestApplicationContext } from '@nestjs/common';
import {
  DomainError, ErrorCode, INTERNAL_HEADERS, PACKAGES_ACTOR_HEADER, PACKAGES_HTTP_PREFIXES, PACKAGES_REQUEST_HEADERS,
  encodeActorHeader, type ActorDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, CORRELATION_HEADER, RpcClient, type CommonSettings } from '@cairn/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { looksLikeToken, readCredentials } from '../auth/credentials.js';
import { resolveCredentials } from '../auth/resolve-credentials.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../config/gateway-settings.js';
import { forwardedResponseHeaders, InternalEndpoint } from '../http/internal-endpoint.js';
import { isInertType, peekHead, secureUserContentHeaders } from '../http/user-content.js';
import { registryOf, registryRefusal } from './registry-refusal.js';

/** Credential failures that mean "authenticate again" (401), not a service fault. */
const CREDENTIAL_FAILURES = [ErrorCode.UNAUTHENTICATED, ErrorCode.NOT_FOUND, ErrorCode.PERMISSION_DENIED, ErrorCode.INVALID_ARGUMENT];

/** Package bodies are large: the default 16 KiB paused the stream after every socket read. */
const UPSTREAM_HIGH_WATER_MARK = 1024 * 1024;

/** Who is calling: an actor, anonymous, or a bearer token that is not Cairn's (the OCI registry's own, checked there). */
type Caller = { actor: ActorDto | null; forwardAuthorization: boolean };

/** Resolves credentials as the API does and streams to packages-service, which decides access. */
export class PackagesProxy {
  private readonly logger = new Logger('PackagesProxy');
  private readonly endpoint: InternalEndpoint;

  constructor(
    private readonly rpc: RpcClient,
    private readonly settings: GatewaySettings,
    private readonly common: CommonSettings,
  ) {
    const url = common.packagesInternalUrl;
    this.endpoint = new InternalEndpoint(url, UPSTREAM_HIGH_WATER_MARK);
  }

  async handle(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const raw = reply.raw;
    reply.hijack();
    const path = req.url.split('?', 1)[0];
    // An answer given before the whole request body arrived (a refusal, an upload the service cut short) closes the
    // connection: the client would otherwise keep sending into a body nobody reads until keep-alive gives up.
    const closeIfBodyUnread = () => {
      if (!req.raw.complete) raw.once('finish', () => req.raw.socket?.destroy());
    };
    const refuse = (status: number, message: string) => {
      if (raw.headersSent) return void raw.destroy();
      const r = registryRefusal(path, status, message, this.common.rootUrl);
      closeIfBodyUnread();
      raw.writeHead(r.status, { ...r.headers, [CORRELATION_HEADER]: String(req.id), ...(req.raw.complete ? {} : { connection: 'close' }) });
      raw.end(r.body);
    };
    let caller: Caller;
    try {
      caller = await this.authenticate(req, path);
    } catch (err) {
      if (err instanceof DomainError && CREDENTIAL_FAILURES.includes(err.code)) {
        return refuse(401, err.code === ErrorCode.PERMISSION_DENIED ? err.message : 'invalid credentials');
      }
      if (err instanceof DomainError && err.code === ErrorCode.UNAVAILABLE) return refuse(503, 'identity service unavailable');
      this.logger.error(`resolving package registry credentials failed: ${(err as Error)?.message ?? String(err)}`);
      return refuse(500, 'internal error');
    }

    const headers: Record<string, string | string[]> = {
      [INTERNAL_HEADERS.token]: this.common.internalToken,
      [CORRELATION_HEADER]: String(req.id),
      // The public address, for registries that build absolute URLs (OCI `Location`, npm tarball links).
      'x-forwarded-host': req.headers.host ?? '',
    };
    if (caller.actor) headers[PACKAGES_ACTOR_HEADER] = encodeActorHeader(caller.actor);
    if (caller.forwardAuthorization && req.headers.authorization) headers.authorization = req.headers.authorization;
    for (const name of PACKAGES_REQUEST_HEADERS) {
      const value = req.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    // The public path is passed on byte for byte (`upstreamPath`; the registries refuse dot-segment names).
    const bodiless = req.method === 'GET' || req.method === 'HEAD';
    const forward = (attempt: number): void => {
      const upstream = this.endpoint.request(req.url, req.method, headers);
      upstream.on('response', (res: IncomingMessage) => {
        // Every registry answer is user content (a blob's declared media type is the uploader's word).
        const status = res.statusCode ?? 502;
        const sniff = req.method === 'GET' && status === 200 && !isInertType(res.headers['content-type']);
        (sniff ? peekHead(res) : Promise.resolve({ head: null, body: res as Readable }))
          .then(({ head, body }) => {
            closeIfBodyUnread();
            raw.writeHead(status, secureUserContentHeaders(forwardedResponseHeaders(res, String(req.id)), 'download', head));
            return pipeline(body, raw);
          })
          .catch(() => raw.destroy());
      });
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        // A kept-alive connection the service closed meanwhile (it restarted): a bodiless request is tried once more.
        if (bodiless && attempt === 0 && upstream.reusedSocket && err.code === 'ECONNRESET' && !raw.headersSent) {
          forward(1);
          return;
        }
        if (!raw.headersSent) this.logger.error(`packages-service unreachable: ${err.message}`);
        refuse(503, 'package registry unavailable');
      });
      // The client went away (an aborted upload or download): end the upstream call too.
      raw.once('close', () => {
        if (!raw.writableFinished) upstream.destroy();
      });
      if (bodiless) upstream.end();
      else pipeline(req.raw, upstream).catch(() => upstream.destroy());
    };
    forward(0);
  }

  private async authenticate(req: FastifyRequest, path: string): Promise<Caller> {
    const presented = readCredentials(req);
    if (presented === 'malformed') throw new DomainError(ErrorCode.UNAUTHENTICATED, 'malformed credentials');
    const request = presented.request;
    if (!request) return { actor: null, forwardAuthorization: false };
    // The container registry's own bearer tokens (from `/v2/token`) are no Cairn tokens: packages-service checks them.
    if (registryOf(path) === 'container' && presented.method === 'token' && !looksLikeToken(request.secret)) {
      return { actor: null, forwardAuthorization: Boolean(req.headers.authorization) };
    }
    const reply = await resolveCredentials(this.rpc, this.settings, request);
    return { actor: reply.actor, forwardAuthorization: false };
  }
}

/** Registers `/api/packages/*` and `/v2/*` (outside `/api/v1`), bodies left unparsed. */
export function registerPackagesRoutes(fastify: FastifyInstance, app: INestApplicationContext): void {
  mountPackagesRoutes(
    fastify,
    new PackagesProxy(app.get(RpcClient), app.get<GatewaySettings>(GATEWAY_SETTINGS), app.get<CommonSettings>(COMMON_SETTINGS)),
  );
}

export function mountPackagesRoutes(fastify: FastifyInstance, proxy: PackagesProxy): void {
  void fastify.register(async (scope) => {
    // Package bodies (any content type) are streamed, never parsed here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    const handle = (req: FastifyRequest, reply: FastifyReply) => proxy.handle(req, reply);
    // No edge limit for signed-in callers: packages-service bounds uploads by its own limits (LIMIT_SIZE_*), with
    // the registry's error; anonymous callers keep the gateway's default limit (they cannot upload anyway).
    const options = { bodyLimit: Number.MAX_SAFE_INTEGER };
    scope.all(`${PACKAGES_HTTP_PREFIXES.registries}/*`, options, handle);
    scope.all(PACKAGES_HTTP_PREFIXES.oci, options, handle);
    scope.all(`${PACKAGES_HTTP_PREFIXES.oci}/*`, options, handle);
  });
}
