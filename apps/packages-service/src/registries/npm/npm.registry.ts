import { DomainError, ErrorCode } from '@cairn/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkOwnerAccess } from '../../access/owner-access-check.js';
import type { OwnerAccess } from '../../access/package-access.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { PackageRegistry, RegistryDeps } from '../registry.js';
import { serveBlob } from '../serve-blob.js';
import { BlobTooLargeError, type StagedBlob } from '@cairn/platform';
import { npmDistTag, npmPackageName, type NpmPackageName } from './npm-names.js';
import { buildPackument, buildSearchResponse, npmRegistryUrl } from './npm-packument.js';
import { parseNpmPath, type NpmPath } from './npm-paths.js';
import { readPublishBody, type AttachmentSink } from './npm-publish-body.js';
import { checkIntegrity, parsePublishDocument } from './npm-publish.js';
import { NpmRepository } from './npm.repository.js';
import { clientErrorStatus } from '../client-error-status.js';

/** The most bytes of a publish body besides its tarball (readme, manifest): kept in memory while the tarball streams. */
const MAX_METADATA_BYTES = 16 << 20;
const MAX_TAG_BODY_BYTES = 1024;
const SEARCH_DEFAULT_SIZE = 20;
const SEARCH_MAX_SIZE = 250;

const PREFIX = '/api/packages/:owner/npm';


/** npm clients read `{ "error": "…" }` (Gitea's npm error format). */
function npmError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error: message });
}

type Params = { owner: string };
type Need = 'read' | 'write';

/** What each path kind needs per method; a missing method is 405. */
const ROUTES: Record<NpmPath['kind'], Partial<Record<string, Need>>> = {
  package: { GET: 'read', HEAD: 'read', PUT: 'write' },
  revision: { PUT: 'write', DELETE: 'write' },
  file: { GET: 'read', HEAD: 'read' },
  'file-revision': { DELETE: 'write' },
  'file-by-name': { GET: 'read', HEAD: 'read' },
  'dist-tags': { GET: 'read' },
  'dist-tag': { PUT: 'write', DELETE: 'write' },
  search: { GET: 'read' },
};

/** A publish streams the base64 tarball into a staged blob and checks its integrity before anything is recorded. */
class NpmRegistry {
  private readonly npm: NpmRepository;

  constructor(private readonly deps: RegistryDeps) {
    this.npm = new NpmRepository(deps.prisma);
  }

  routes(app: FastifyInstance): void {
    app.route<{ Params: Params }>({
      method: ['GET', 'HEAD', 'PUT', 'DELETE'],
      url: `${PREFIX}/*`,
      // HEAD is served by this route itself (same answer as GET without the body).
      exposeHeadRoute: false,
      handler: (req, reply) => this.dispatch(req, reply),
    });
  }

  private async dispatch(req: FastifyRequest<{ Params: Params }>, reply: FastifyReply): Promise<void> {
    try {
      const raw = req.raw.url ?? '';
      const rest = raw.split('?', 1)[0].split('/').slice(5).join('/'); // after /api/packages/{owner}/npm/
      const path = parseNpmPath(rest);
      if (!path) return void (await npmError(reply, 404, 'Not Found'));
      const need = ROUTES[path.kind][req.method];
      if (!need) return void (await npmError(reply.header('allow', Object.keys(ROUTES[path.kind]).join(', ')), 405, 'Method Not Allowed'));
      const name = 'name' in path ? npmPackageName(path.name) : null;
      const resolved = await this.authorize(req, reply, need);
      if (!resolved) return;
      await this.handle(req, reply, path, name, resolved);
    } catch (err) {
      dropUnreadBody(req);
      if (err instanceof BlobTooLargeError) {
        return void (await npmError(reply, 413, `package file is too large: the npm limit (LIMIT_SIZE_NPM) is ${err.maxBytes} bytes`));
      }
      const status = clientErrorStatus(err);
      if (status) return void (await npmError(reply, status, (err as Error).message));
      // The client went away before its body was read: nothing was recorded and nobody waits for an answer. Any
      // other failure is answered (5xx, logged by the server's error handler), never a silent 200.
      if (!req.raw.complete) return void reply.raw.destroy();
      throw err;
    }
  }

  private async handle(
    req: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    path: NpmPath,
    name: NpmPackageName | null,
    resolved: OwnerAccess,
  ): Promise<void> {
    const ownerId = resolved.owner.id;
    switch (path.kind) {
      case 'package':
        return req.method === 'PUT' ? this.publish(req, reply, name!, resolved) : this.packument(reply, name!, resolved);
      case 'revision':
        // PUT …/-rev/{rev}: npm sends the packument without the version it is about to delete; nothing to do (Gitea).
        return req.method === 'PUT' ? void (await reply.code(200).send({ ok: true })) : this.unpublishPackage(reply, ownerId, name!, req.actor?.id ?? null);
      case 'file':
        return this.download(req, reply, ownerId, name!, path.version, path.filename);
      case 'file-by-name':
        return this.download(req, reply, ownerId, name!, null, path.filename);
      case 'file-revision':
        return this.unpublishVersion(reply, ownerId, name!, path.version, req.actor?.id ?? null);
      case 'dist-tags':
        return this.listTags(reply, ownerId, name!);
      case 'dist-tag':
        return req.method === 'PUT' ? this.addTag(req, reply, ownerId, name!, path.tag) : this.deleteTag(reply, ownerId, name!, path.tag);
      case 'search':
        return this.search(req, reply, resolved);
    }
  }

  private async authorize(req: FastifyRequest<{ Params: Params }>, reply: FastifyReply, need: Need): Promise<OwnerAccess | null> {
    const check = await checkOwnerAccess(this.deps.access, req.actor, req.params.owner, need);
    if ('granted' in check) return check.granted;
    const { kind, message } = check.refused;
    dropUnreadBody(req);
    if (kind === 'unauthenticated') void reply.header('www-authenticate', 'Basic realm="Gitea Package API"');
    await npmError(reply, { 'no-owner': 404, unauthenticated: 401, forbidden: 403 }[kind], message);
    return null;
  }

  private registryUrl(resolved: OwnerAccess): string {
    return npmRegistryUrl(this.deps.common.rootUrl, resolved.owner.login);
  }

  private async packument(reply: FastifyReply, name: NpmPackageName, resolved: OwnerAccess): Promise<void> {
    const pkg = await this.deps.store.findPackage(resolved.owner.id, 'npm', name.full);
    const records = pkg ? await this.npm.versionRecords(pkg.id) : [];
    if (!pkg || !records.length) return void (await npmError(reply, 404, 'package does not exist'));
    await reply.type('application/json; charset=utf-8').send(buildPackument(this.registryUrl(resolved), resolved.owner.login, pkg.name, records));
  }

  private async publish(
    req: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    name: NpmPackageName,
    resolved: OwnerAccess,
  ): Promise<void> {
    const { store } = this.deps;
    const sink: AttachmentSink<StagedBlob> = {
      store: (_attachment, data) => store.blobs.stage(data, { maxBytes: store.maxFileBytes('npm') }),
      discard: (staged) => store.blobs.discard(staged),
    };
    // Not destroyed when reading stops early: the error answer must still reach the client (see `dispatch`).
    const body = await readPublishBody(req.raw.iterator({ destroyOnReturn: false }), sink, MAX_METADATA_BYTES);
    const staged = body.attachment?.stored;
    try {
      const publish = parsePublishDocument(body.document, name);
      if (!staged) throw DomainError.invalid('package attachment is invalid: the attachment has no base64 data');
      checkIntegrity(publish, staged);
      await store.checkOwnerQuota(resolved.owner.id, staged.size);
      await store.transaction(async (tx) => {
        const pkg = await store.getOrCreatePackage(tx, {
          ownerId: resolved.owner.id, type: 'npm', name: publish.name.full, semverCompatible: true,
        });
        const pv = await store.createVersion(tx, {
          packageId: pkg.id, version: publish.version, creatorId: req.actor?.id ?? 0, metadata: publish.metadata as Record<string, unknown> as Prisma.InputJsonObject,
        });
        const blob = await store.commitBlob(tx, staged);
        await store.addFile(tx, { versionId: pv.id, blobId: blob.id, name: publish.filename, isLead: true });
        for (const tag of publish.distTags) await this.npm.setTag(tx, pv, tag);
      });
    } finally {
      if (staged) await store.blobs.discard(staged);
    }
    await reply.code(201).send({ ok: true });
  }

  private async download(
    req: FastifyRequest,
    reply: FastifyReply,
    ownerId: number,
    name: NpmPackageName,
    version: string | null,
    filename: string,
  ): Promise<void> {
    const { store } = this.deps;
    const pkg = await this.deps.store.findPackage(ownerId, 'npm', name.full);
    const pv = pkg && (version === null ? await this.npm.versionWithFile(pkg.id, filename) : await store.findVersion(pkg.id, version));
    const file = pv && !pv.isInternal ? await store.findFile(pv.id, filename) : null;
    if (!pv || !file) return void (await npmError(reply, 404, 'package file does not exist'));
    if (req.method === 'GET') await store.countDownload(pv.id);
    const b = file.blob;
    await serveBlob(req, reply, store.blobs, {
      sha256: b.hashSha256, sha1: b.hashSha1, md5: b.hashMd5, sha512: b.hashSha512, size: Number(b.size),
      filename: file.name, lastModified: file.createdAt,
    });
  }

  private async unpublishVersion(
    reply: FastifyReply, ownerId: number, name: NpmPackageName, version: string, doerId: number | null,
  ): Promise<void> {
    const { store } = this.deps;
    const deleted = await store.transaction(async (tx) => {
      const pkg = await this.deps.store.findPackage(ownerId, 'npm', name.full, tx);
      const pv = pkg && (await store.findVersion(pkg.id, version, tx));
      if (!pv) return false;
      await store.deleteVersion(tx, pv, doerId);
      return true;
    });
    if (!deleted) return void (await npmError(reply, 404, 'package does not exist'));
    await reply.code(200).send({ ok: true });
  }

  private async unpublishPackage(reply: FastifyReply, ownerId: number, name: NpmPackageName, doerId: number | null): Promise<void> {
    const { store } = this.deps;
    const deleted = await store.transaction(async (tx) => {
      const pkg = await this.deps.store.findPackage(ownerId, 'npm', name.full, tx);
      if (!pkg) return false;
      const versions = await store.versionsOfPackage(pkg.id, tx);
      for (const pv of versions) await store.deleteVersion(tx, pv, doerId);
      return versions.length > 0;
    });
    if (!deleted) return void (await npmError(reply, 404, 'package does not exist'));
    await reply.code(200).send({ ok: true });
  }

  private async listTags(reply: FastifyReply, ownerId: number, name: NpmPackageName): Promise<void> {
    const pkg = await this.deps.store.findPackage(ownerId, 'npm', name.full);
    await reply.send(pkg ? await this.npm.distTags(pkg.id) : {});
  }

  private async addTag(
    req: FastifyRequest,
    reply: FastifyReply,
    ownerId: number,
    name: NpmPackageName,
    tag: string,
  ): Promise<void> {
    npmDistTag(tag);
    const version = versionOfTagBody(await readSmallBody(req, MAX_TAG_BODY_BYTES));
    const { store } = this.deps;
    const found = await store.transaction(async (tx) => {
      const pkg = await this.deps.store.findPackage(ownerId, 'npm', name.full, tx);
      const pv = pkg && (await store.findVersion(pkg.id, version, tx));
      if (!pv || pv.isInternal) return false;
      await this.npm.setTag(tx, pv, tag);
      return true;
    });
    if (!found) return void (await npmError(reply, 404, `package version ${name.full}@${version} does not exist`));
    await reply.code(200).send({ ok: true });
  }

  private async deleteTag(reply: FastifyReply, ownerId: number, name: NpmPackageName, tag: string): Promise<void> {
    npmDistTag(tag);
    const pkg = await this.deps.store.findPackage(ownerId, 'npm', name.full);
    if (pkg) await this.deps.store.transaction((tx) => this.npm.deleteTag(tx, pkg.id, tag));
    await reply.code(200).send({ ok: true });
  }

  private async search(req: FastifyRequest, reply: FastifyReply, resolved: OwnerAccess): Promise<void> {
    const query = req.query as Record<string, string | undefined>;
    const text = (query.text ?? '').trim();
    const from = nonNegative(query.from, 0);
    const size = Math.min(nonNegative(query.size, SEARCH_DEFAULT_SIZE) || SEARCH_DEFAULT_SIZE, SEARCH_MAX_SIZE);
    const { hits, total } = await this.npm.search(resolved.owner.id, text, from, size);
    await reply.send(buildSearchResponse(this.registryUrl(resolved), resolved.owner.login, hits, total));
  }
}

/** Reads and drops the rest of a refused body, so the gateway reads the answer instead of a reset connection. */
function dropUnreadBody(req: FastifyRequest): void {
  if (req.method === 'PUT' && !req.raw.readableEnded && !req.raw.destroyed) req.raw.resume();
}

/** `PUT …/dist-tags/{tag}` carries the version as a JSON string (`"1.0.0"`); Gitea also takes it bare. */
function versionOfTagBody(body: string): string {
  const text = body.trim();
  if (text.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'string') return parsed;
    } catch {
      // fall through to the bare form
    }
  }
  return text.replace(/^"|"$/g, '');
}

async function readSmallBody(req: FastifyRequest, max: number): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new DomainError(ErrorCode.CONTENT_TOO_LARGE, `request body exceeds ${max} bytes`);
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}

function nonNegative(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return raw !== undefined && raw !== '' && Number.isSafeInteger(n) && n >= 0 ? n : fallback;
}

export const npmRegistry: PackageRegistry = {
  type: 'npm',
  routes: (app, deps) => new NpmRegistry(deps).routes(app),
};
