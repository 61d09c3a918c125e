import { DomainError, ErrorCode } from '@cairn/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OwnerAccess } from '../../access/package-access.js';
import type { PackageRegistry, RegistryDeps } from '../registry.js';
import { serveBlob } from '../serve-blob.js';
import { BlobTooLargeError } from '@cairn/platform';
import { genericFileNameError, genericPackageNameError, genericVersionError } from './generic-names.js';
import { clientErrorStatus } from '../client-error-status.js';

type FileParams = { owner: string; name: string; version: string; filename: string };
type VersionParams = Omit<FileParams, 'filename'>;

const BASE = '/api/packages/:owner/generic/:name/:version';

/** Gitea's generic registry answers in plain text. */
function plain(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('text/plain; charset=utf-8').send(`${message}\n`);
}


/** Uploads stream to a temporary blob first; version and file are recorded in one transaction, or nothing is. */
class GenericRegistry {
  constructor(private readonly deps: RegistryDeps) {}

  routes(app: FastifyInstance): void {
    app.put<{ Params: FileParams }>(`${BASE}/:filename`, (req, reply) => this.upload(req, reply));
    app.get<{ Params: FileParams }>(`${BASE}/:filename`, (req, reply) => this.download(req, reply));
    app.delete<{ Params: FileParams }>(`${BASE}/:filename`, (req, reply) => this.deleteFile(req, reply));
    app.delete<{ Params: VersionParams }>(BASE, (req, reply) => this.deleteVersion(req, reply));
  }

  private async authorize(
    req: FastifyRequest<{ Params: Partial<FileParams> & VersionParams }>,
    reply: FastifyReply,
    need: 'read' | 'write',
  ): Promise<OwnerAccess | null> {
    const { name, version, filename } = req.params;
    const invalid =
      genericPackageNameError(name) ?? genericVersionError(version) ?? (filename === undefined ? null : genericFileNameError(filename));
    if (invalid) {
      await plain(reply, 400, invalid);
      return null;
    }
    let resolved: OwnerAccess;
    try {
      resolved = await this.deps.access.resolve(req.actor, req.params.owner);
    } catch (err) {
      if (err instanceof DomainError && (err.code === ErrorCode.NOT_FOUND || err.code === ErrorCode.INVALID_ARGUMENT)) {
        await plain(reply, 404, 'owner does not exist');
        return null;
      }
      throw err;
    }
    const refusal = this.deps.access.refusal(req.actor, resolved, need);
    if (refusal?.kind === 'unauthenticated') {
      await plain(reply.header('www-authenticate', 'Basic realm="Gitea Package API"'), 401, refusal.message);
      return null;
    }
    if (refusal) {
      await plain(reply, 403, refusal.message);
      return null;
    }
    return resolved;
  }

  private async upload(req: FastifyRequest<{ Params: FileParams }>, reply: FastifyReply): Promise<void> {
    const resolved = await this.authorize(req, reply, 'write');
    if (!resolved) return;
    const { store } = this.deps;
    const { name, version, filename } = req.params;
    const declared = Number(req.headers['content-length']);
    try {
      if (Number.isFinite(declared)) store.checkFileSize('generic', declared);
      const staged = await store.blobs.stage(req.raw, { maxBytes: store.maxFileBytes('generic') });
      try {
        await store.checkOwnerQuota(resolved.owner.id, staged.size);
        await store.transaction(async (tx) => {
          const pkg = await store.getOrCreatePackage(tx, { ownerId: resolved.owner.id, type: 'generic', name });
          const pv = await store.getOrCreateVersion(tx, { packageId: pkg.id, version, creatorId: req.actor?.id ?? 0 });
          if (await store.findFile(pv.id, filename, '', tx)) throw DomainError.alreadyExists('package file already exists');
          const blob = await store.commitBlob(tx, staged);
          await store.addFile(tx, { versionId: pv.id, blobId: blob.id, name: filename, isLead: true });
        });
      } finally {
        await store.blobs.discard(staged);
      }
    } catch (err) {
      if (err instanceof BlobTooLargeError) {
        return void (await plain(reply, 413, `package file is too large: the generic limit (LIMIT_SIZE_GENERIC) is ${err.maxBytes} bytes`));
      }
      const status = clientErrorStatus(err);
      if (status) return void (await plain(reply, status, (err as Error).message));
      // The client went away before its body was read: nothing was recorded and nobody waits for an answer. Any
      // other failure is answered (5xx, logged by the server's error handler), never a silent 200.
      if (!req.raw.complete) return void reply.raw.destroy();
      throw err;
    }
    await plain(reply, 201, 'created');
  }

  private async download(req: FastifyRequest<{ Params: FileParams }>, reply: FastifyReply): Promise<void> {
    const resolved = await this.authorize(req, reply, 'read');
    if (!resolved) return;
    const { store } = this.deps;
    const pkg = await store.findPackage(resolved.owner.id, 'generic', req.params.name);
    const pv = pkg && (await store.findVersion(pkg.id, req.params.version));
    if (!pv) return void (await plain(reply, 404, 'package does not exist'));
    const file = await store.findFile(pv.id, req.params.filename);
    if (!file) return void (await plain(reply, 404, 'package file does not exist'));
    if (file.isLead && req.method === 'GET') await store.countDownload(pv.id);
    const b = file.blob;
    await serveBlob(req, reply, store.blobs, {
      sha256: b.hashSha256, sha1: b.hashSha1, md5: b.hashMd5, sha512: b.hashSha512, size: Number(b.size),
      filename: file.name, lastModified: file.createdAt,
    });
  }

  private async deleteFile(req: FastifyRequest<{ Params: FileParams }>, reply: FastifyReply): Promise<void> {
    const resolved = await this.authorize(req, reply, 'write');
    if (!resolved) return;
    const { store } = this.deps;
    const deleted = await store.transaction(async (tx) => {
      const pkg = await store.findPackage(resolved.owner.id, 'generic', req.params.name, tx);
      // Locked before anything is counted: an upload to this version that answered 201 is counted below.
      if (!pkg || !(await store.lockPackage(tx, pkg.id))) return false;
      const pv = await store.findVersion(pkg.id, req.params.version, tx);
      const file = pv && (await store.findFile(pv.id, req.params.filename, '', tx));
      if (!pv || !file) return false;
      // The last file takes its version with it (Gitea's rule).
      if ((await store.countFiles(pv.id, tx)) === 1) await store.deleteVersion(tx, pv, req.actor?.id ?? null);
      else await store.deleteFile(tx, file.id);
      return true;
    });
    if (!deleted) return void (await plain(reply, 404, 'package file does not exist'));
    await reply.code(204).send();
  }

  private async deleteVersion(req: FastifyRequest<{ Params: VersionParams }>, reply: FastifyReply): Promise<void> {
    const resolved = await this.authorize(req, reply, 'write');
    if (!resolved) return;
    const { store } = this.deps;
    const deleted = await store.transaction(async (tx) => {
      const pkg = await store.findPackage(resolved.owner.id, 'generic', req.params.name, tx);
      const pv = pkg && (await store.findVersion(pkg.id, req.params.version, tx));
      if (!pv) return false;
      await store.deleteVersion(tx, pv, req.actor?.id ?? null);
      return true;
    });
    if (!deleted) return void (await plain(reply, 404, 'package does not exist'));
    await reply.code(204).send();
  }
}

export const genericRegistry: PackageRegistry = {
  type: 'generic',
  routes: (app, deps) => new GenericRegistry(deps).routes(app),
};
