// The OCI HTTP face (Gitea's `/v2/token` flow): one wildcard route; errors in the spec's `{ errors: [...] }` body.
import type { Readable } from 'node:stream';
import { DomainError, ErrorCode, containerRegistryChallenge, type ActorDto } from '@cairn/contracts';
import { isDatabaseUnavailable, parseRange } from '@cairn/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OwnerAccess } from '../../access/package-access.js';
import type { PackageRegistry, RegistryDeps } from '../registry.js';
import { ContainerRegistryService, type ImageRef } from './container-registry.service.js';
import { ContainerRepository } from './container.repository.js';
import { API_VERSION_HEADER } from './oci-headers.js';
import { OciError } from './oci-errors.js';
import { MAX_MANIFEST_BYTES } from './oci-manifest.js';
import { parseOciPath, type OciEndpoint } from './oci-path.js';
import { isImageName, parseManifestReference, truncate } from './oci-reference.js';
import {
  registryTokenKey, REGISTRY_TOKEN_TTL_SECONDS, signRegistryToken, subjectFor, verifyRegistryToken,
} from './registry-token.js';
import { parseContentRange, uploadRangeHeader } from './upload-range.js';

/** Gitea's page size limit of the catalog. */
const CATALOG_MAX = 100;

type ImageEndpoint = Exclude<OciEndpoint, { kind: 'base' | 'token' | 'catalog' }>;

interface Caller {
  actor: ActorDto | null;
  presented: boolean;
}

class ContainerRegistry {
  private readonly service: ContainerRegistryService;
  private readonly tokenKey: Buffer;
  private readonly challenge: string;

  constructor(private readonly deps: RegistryDeps) {
    this.service = new ContainerRegistryService(deps.store, new ContainerRepository(deps.prisma));
    this.tokenKey = registryTokenKey(deps.settings.secretKey);
    this.challenge = containerRegistryChallenge(deps.common.rootUrl);
  }

  routes(app: FastifyInstance): void {
    const handle = (req: FastifyRequest, reply: FastifyReply) => this.handle(req, reply);
    app.all('/v2', handle);
    app.all('/v2/*', handle);
  }

  private async handle(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    try {
      const url = new URL(req.url, 'http://registry.invalid');
      const endpoint = parseOciPath(url.pathname);
      if (!endpoint) throw new OciError('NAME_UNKNOWN', `no registry endpoint at ${truncate(url.pathname)}`);
      const caller = await this.caller(req);
      switch (endpoint.kind) {
        case 'base':
          if (!caller.presented) throw new OciError('UNAUTHORIZED');
          return void (await this.send(reply.code(200).type('application/json'), {}));
        case 'token':
          return await this.token(req, reply, caller);
        case 'catalog':
          if (!caller.presented) throw new OciError('UNAUTHORIZED');
          return await this.catalog(req, reply, caller, url.searchParams);
        default:
          return await this.image(req, reply, caller, endpoint, url.searchParams);
      }
    } catch (err) {
      await this.fail(reply, err);
    }
  }

  /** Gitea's catalog: images whose owner the caller may read, `n` ≤ 100 after `last`, `Link` when the page is full. */
  private async catalog(req: FastifyRequest, reply: FastifyReply, caller: Caller, query: URLSearchParams): Promise<void> {
    if (req.method !== 'GET') throw new OciError('UNSUPPORTED');
    const asked = Number(query.get('n') ?? '');
    const n = Number.isInteger(asked) && asked > 0 && asked <= CATALOG_MAX ? asked : CATALOG_MAX;
    const repositories: string[] = [];
    const readable = new Map<string, boolean>();
    let last = (query.get('last') ?? '').toLowerCase();
    // Candidates come in batches; owners are checked once each (Gitea: owners the caller can see).
    for (;;) {
      const batch = await this.service.repositoryNames(last, CATALOG_MAX);
      for (const name of batch) {
        const owner = name.slice(0, name.indexOf('/'));
        if (!readable.has(owner)) readable.set(owner, await this.mayRead(caller.actor, owner));
        if (readable.get(owner)) repositories.push(name);
        if (repositories.length === n) break;
      }
      if (repositories.length === n || batch.length < CATALOG_MAX) break;
      last = batch[batch.length - 1];
    }
    if (repositories.length === n) {
      const next = new URLSearchParams({ n: String(n), last: repositories[repositories.length - 1] });
      void reply.header('link', `</v2/_catalog?${next.toString()}>; rel="next"`);
    }
    await this.send(reply.code(200).type('application/json'), { repositories });
  }

  private async mayRead(actor: ActorDto | null, owner: string): Promise<boolean> {
    try {
      await this.authorize(actor, owner, 'read');
      return true;
    } catch (err) {
      if (err instanceof OciError) return false;
      throw err;
    }
  }

  /** `GET /v2/token`: a registry bearer token for whoever the gateway authenticated (anonymous included, as Gitea). */
  private async token(req: FastifyRequest, reply: FastifyReply, caller: Caller): Promise<void> {
    // Gitea answers the OAuth2 form (POST) with 404, so clients fall back to GET.
    if (req.method !== 'GET') throw new OciError('UNSUPPORTED', 'only GET /v2/token is offered', undefined, 404);
    if (!caller.actor && this.deps.settings.requireSigninView) throw new OciError('UNAUTHORIZED');
    if (caller.actor?.via === 'token' && !caller.actor.scopes.some((s) => s === 'all' || s.endsWith(':package'))) {
      throw new OciError('UNAUTHORIZED', 'token does not have at least one of required scope(s): [read:package]');
    }
    const { token, claims } = signRegistryToken(this.tokenKey, subjectFor(caller.actor));
    await this.send(reply.code(200).type('application/json'), {
      token,
      access_token: token,
      expires_in: REGISTRY_TOKEN_TTL_SECONDS,
      issued_at: new Date(claims.iat * 1000).toISOString(),
    });
  }

  private async image(
    req: FastifyRequest,
    reply: FastifyReply,
    caller: Caller,
    endpoint: ImageEndpoint,
    query: URLSearchParams,
  ): Promise<void> {
    const method = req.method;
    const need = method === 'GET' || method === 'HEAD' ? 'read' : 'write';
    const access = await this.authorize(caller.actor, endpoint.owner, need);
    const ref: ImageRef = { ownerId: access.owner.id, owner: endpoint.owner, image: endpoint.image };
    const creatorId = caller.actor?.id ?? 0;
    const base = `/v2/${ref.owner}/${ref.image}`;

    switch (endpoint.kind) {
      case 'tags': {
        if (method !== 'GET') throw new OciError('UNSUPPORTED');
        const n = parseCount(query.get('n'));
        const last = query.get('last') ?? '';
        const tags = await this.service.tags(ref, last, n);
        if (tags.length > 0) {
          const next = new URLSearchParams({ last: tags[tags.length - 1], ...(n !== undefined ? { n: String(n) } : {}) });
          void reply.header('link', `<${base}/tags/list?${next.toString()}>; rel="next"`);
        }
        return this.send(reply.code(200).type('application/json'), { name: `${ref.owner}/${ref.image}`, tags });
      }

      case 'blob': {
        if (method === 'DELETE') {
          await this.service.deleteBlob(ref, endpoint.digest);
          return this.send(reply.code(202));
        }
        if (method !== 'GET' && method !== 'HEAD') throw new OciError('UNSUPPORTED');
        const blob = await this.service.blob(ref, endpoint.digest);
        const headers = {
          'content-type': blob.mediaType ?? 'application/octet-stream',
          'content-length': String(blob.size),
          'docker-content-digest': endpoint.digest,
          etag: `"${endpoint.digest}"`,
        };
        if (method === 'HEAD') return this.head(reply, 200, { ...headers, 'accept-ranges': 'bytes' });
        // SERVE_DIRECT: the layer comes from the object store (307, as the distribution spec allows and Gitea answers).
        const direct = await this.service.directBlobUrl(blob.sha256, blob.mediaType ?? 'application/octet-stream');
        if (direct) {
          return this.send(reply.code(307).headers({ location: direct, 'docker-content-digest': endpoint.digest }));
        }
        // One byte range, so clients can resume a layer download.
        const range = parseRange(header(req, 'range'), blob.size);
        if (range === 'unsatisfiable') {
          throw new OciError('RANGE_INVALID', `range ${truncate(header(req, 'range') ?? '', 40)} is outside the blob's ${blob.size} bytes`);
        }
        if (range) {
          void reply.code(206);
          Object.assign(headers, {
            'content-range': `bytes ${range.start}-${range.end}/${blob.size}`,
            'content-length': String(range.end - range.start + 1),
          });
        }
        return this.stream(reply, headers, await this.service.openBlob(blob.sha256, range ?? undefined));
      }

      case 'manifest': {
        const reference = parseManifestReference(endpoint.reference);
        if (method === 'PUT') {
          if (!reference) throw new OciError('MANIFEST_INVALID', `"${truncate(endpoint.reference)}" is neither a tag nor a sha256 digest`);
          const body = await readBounded(req.raw, MAX_MANIFEST_BYTES);
          const stored = await this.service.putManifest(ref, creatorId, reference, body, req.headers['content-type']);
          return this.send(reply.code(201).headers({
            location: `${base}/manifests/${endpoint.reference}`,
            'docker-content-digest': stored.digest,
          }));
        }
        if (!reference) throw new OciError('MANIFEST_UNKNOWN', `"${truncate(endpoint.reference)}" is neither a tag nor a sha256 digest`);
        if (method === 'DELETE') {
          await this.service.deleteManifest(ref, reference, creatorId || null);
          return this.send(reply.code(202));
        }
        if (method !== 'GET' && method !== 'HEAD') throw new OciError('UNSUPPORTED');
        const manifest = await this.service.manifest(ref, reference);
        const digest = `sha256:${manifest.sha256}`;
        const headers = {
          'content-type': manifest.mediaType ?? 'application/vnd.oci.image.manifest.v1+json',
          'content-length': String(manifest.size),
          'docker-content-digest': digest,
          etag: `"${digest}"`,
        };
        if (method === 'HEAD') return this.head(reply, 200, headers);
        // A pull counts as a download of the version (Gitea counts manifest GETs).
        await this.service.countPull(manifest.versionId).catch(() => undefined);
        return this.stream(reply, headers, await this.service.openBlob(manifest.sha256));
      }

      case 'uploads':
        return this.uploads(req, reply, ref, creatorId, endpoint.uploadId, query);
    }
  }

  private async uploads(
    req: FastifyRequest,
    reply: FastifyReply,
    ref: ImageRef,
    creatorId: number,
    uploadId: string | undefined,
    query: URLSearchParams,
  ): Promise<void> {
    const base = `/v2/${ref.owner}/${ref.image}`;
    const method = req.method;
    if (uploadId === undefined) {
      if (method !== 'POST') throw new OciError('UNSUPPORTED');
      const mount = query.get('mount');
      if (mount) {
        const from = parseFrom(query.get('from'));
        if (await this.service.mount(ref, creatorId, mount, from)) {
          return this.send(reply.code(201).headers({ location: `${base}/blobs/${mount}`, 'docker-content-digest': mount }));
        }
      }
      const digest = query.get('digest');
      if (digest !== null) {
        await this.service.uploadMonolithic(ref, creatorId, digest, req.raw);
        return this.send(reply.code(201).headers({ location: `${base}/blobs/${digest}`, 'docker-content-digest': digest }));
      }
      const session = await this.service.startUpload(ref);
      return this.send(reply.code(202).headers(sessionHeaders(base, session.id, 0)));
    }

    const session = await this.service.upload(ref, uploadId);
    const contentLength = parseContentLength(req.headers['content-length']);
    switch (method) {
      case 'GET':
        return this.send(reply.code(204).headers(sessionHeaders(base, session.id, Number(session.bytesReceived))));
      case 'PATCH': {
        const received = await this.service.appendChunk(session, req.raw, parseContentRange(header(req, 'content-range')), contentLength);
        return this.send(reply.code(202).headers(sessionHeaders(base, session.id, received)));
      }
      case 'PUT': {
        const digest = query.get('digest');
        if (digest === null) throw new OciError('DIGEST_INVALID', 'PUT completing an upload needs ?digest=');
        if (hasBody(req, contentLength)) {
          // The last chunk may come with the PUT; without a range it continues where the upload ends.
          const range = parseContentRange(header(req, 'content-range')) ?? 'end';
          session.bytesReceived = BigInt(await this.service.appendChunk(session, req.raw, range, contentLength));
        }
        await this.service.finishUpload(ref, creatorId, session, digest);
        return this.send(reply.code(201).headers({ location: `${base}/blobs/${digest}`, 'docker-content-digest': digest }));
      }
      case 'DELETE':
        await this.service.cancelUpload(session);
        return this.send(reply.code(204));
      default:
        throw new OciError('UNSUPPORTED');
    }
  }

  private async authorize(actor: ActorDto | null, owner: string, need: 'read' | 'write'): Promise<OwnerAccess> {
    let resolved: OwnerAccess;
    try {
      resolved = await this.deps.access.resolve(actor, owner);
    } catch (err) {
      if (err instanceof DomainError && (err.code === ErrorCode.NOT_FOUND || err.code === ErrorCode.INVALID_ARGUMENT)) {
        throw new OciError('NAME_UNKNOWN', `owner ${truncate(owner)} does not exist`);
      }
      throw err;
    }
    const refusal = this.deps.access.refusal(actor, resolved, need);
    if (refusal?.kind === 'unauthenticated') throw new OciError('UNAUTHORIZED', refusal.message);
    if (refusal) throw new OciError('DENIED', refusal.message);
    return resolved;
  }

  /** Bearer tokens are references: a token whose user or access token no longer signs in is refused (401). */
  private async caller(req: FastifyRequest): Promise<Caller> {
    if (req.actor) return { actor: req.actor, presented: true };
    const auth = req.headers.authorization;
    if (!auth) return { actor: null, presented: false };
    const m = /^bearer\s+(\S+)$/i.exec(auth.trim());
    const claims = m ? verifyRegistryToken(this.tokenKey, m[1]) : undefined;
    if (!claims) throw new OciError('UNAUTHORIZED', 'the bearer token is invalid or expired');
    if (claims.uid === 0) return { actor: null, presented: true };
    const actor = await this.deps.access.currentActor(claims.uid, claims.tid);
    if (!actor) throw new OciError('UNAUTHORIZED', 'the bearer token\'s user or access token may no longer sign in');
    return { actor, presented: true };
  }

  private async fail(reply: FastifyReply, failure: unknown): Promise<void> {
    const err = asOciError(failure);
    if (!err) throw failure;
    if (reply.sent || reply.raw.headersSent) return void reply.raw.destroy();
    if (err.status === 401) void reply.header('www-authenticate', this.challenge);
    await this.send(reply.code(err.status).type('application/json'), err.body);
  }

  private async send(reply: FastifyReply, body?: unknown): Promise<void> {
    await reply.headers(API_VERSION_HEADER).send(body === undefined ? undefined : JSON.stringify(body));
  }

  /** HEAD answers carry the GET's length, which Fastify would otherwise replace with 0. */
  private async head(reply: FastifyReply, status: number, headers: Record<string, string>): Promise<void> {
    reply.hijack();
    reply.raw.writeHead(status, { ...API_VERSION_HEADER, ...headers });
    reply.raw.end();
  }

  private async stream(reply: FastifyReply, headers: Record<string, string>, body: Readable): Promise<void> {
    if (reply.statusCode !== 206) void reply.code(200);
    await reply.headers({ ...API_VERSION_HEADER, ...headers }).send(body);
  }
}

/** The registry's own errors, and outages of what it depends on (503); anything else is a fault (500). */
function asOciError(err: unknown): OciError | null {
  if (err instanceof OciError) return err;
  if ((err instanceof DomainError && err.code === ErrorCode.UNAVAILABLE) || isDatabaseUnavailable(err)) {
    return new OciError('UNAVAILABLE');
  }
  return null;
}

function sessionHeaders(base: string, id: string, received: number): Record<string, string> {
  return {
    location: `${base}/blobs/uploads/${id}`,
    range: uploadRangeHeader(received),
    'docker-upload-uuid': id,
  };
}

function parseCount(raw: string | null): number | undefined {
  if (raw === null || raw === '') return undefined;
  if (!/^\d{1,6}$/.test(raw)) throw new OciError('PAGINATION_NUMBER_INVALID', `n=${truncate(raw, 20)} is not a number of results`);
  return Number(raw);
}

/** `?from=<owner>/<image>` of a mount; undefined when absent or not a repository name (then nothing is mounted). */
function parseFrom(raw: string | null): { owner: string; image: string } | undefined {
  if (!raw) return undefined;
  const slash = raw.indexOf('/');
  if (slash < 0) return undefined;
  const owner = raw.slice(0, slash);
  const image = raw.slice(slash + 1);
  return isImageName(owner) && isImageName(image) ? { owner, image } : undefined;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function parseContentLength(raw: string | undefined): number | undefined {
  return raw !== undefined && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}

function hasBody(req: FastifyRequest, contentLength: number | undefined): boolean {
  return (contentLength ?? 0) > 0 || (contentLength === undefined && req.headers['transfer-encoding'] !== undefined);
}

async function readBounded(body: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > max) {
      body.destroy();
      throw new OciError('MANIFEST_INVALID', `manifest exceeds the maximum size of ${max} bytes`, undefined, 413);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export const containerRegistry: PackageRegistry = {
  type: 'container',
  routes: (app, deps) => new ContainerRegistry(deps).routes(app),
};
