// OCI distribution rules as Gitea implements them; bytes stream to files and the blob store, never into memory.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError, ErrorCode } from '@cairn/contracts';
import { BlobTooLargeError, type BlobStore, type ByteRange, type StagedBlob } from '@cairn/platform';
import type { PackageStore } from '../../store/package-store.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Tx } from '../../prisma/prisma.service.js';
import {
  CONTAINER, ContainerRepository, MANIFEST_FILENAME, Props, UPLOAD_VERSION, blobFileName, type BlobHit, type ManifestHit,
  type UploadRow,
} from './container.repository.js';
import { imageMetadata, indexMetadata, MAX_CONFIG_BYTES_FOR_METADATA, type ContainerMetadata } from './image-metadata.js';
import { OciError, sizeLimitExceeded } from './oci-errors.js';
import { parseManifest, type Descriptor } from './oci-manifest.js';
import { digestHex, digestOfHex, digestProblem, type ManifestReference } from './oci-reference.js';
import { checkChunk, type ChunkRange } from './upload-range.js';

export interface ImageRef {
  ownerId: number;
  owner: string;
  image: string;
}

export interface StoredManifest {
  digest: string;
  mediaType: string;
  size: number;
  sha256: string;
  versionId: number;
}

export class ContainerRegistryService {
  private readonly blobs: BlobStore;

  constructor(
    private readonly store: PackageStore,
    private readonly repo: ContainerRepository,
  ) {
    this.blobs = store.blobs;
  }


  async blob(ref: ImageRef, digest: string): Promise<BlobHit> {
    if (digestProblem(digest)) throw new OciError('BLOB_UNKNOWN', `blob ${digest.slice(0, 80)} is unknown: not a sha256 digest`);
    const hit = await this.repo.findImageBlob(ref.ownerId, ref.image, digestHex(digest));
    if (!hit) throw new OciError('BLOB_UNKNOWN', undefined, { digest });
    return hit;
  }

  /** Where the client may fetch a layer from the object store itself (`SERVE_DIRECT`), or null. */
  directBlobUrl(sha256: string, contentType: string): Promise<string | null> {
    return this.blobs.directUrl(sha256, { filename: sha256, contentType });
  }

  async openBlob(sha256: string, range?: ByteRange): Promise<Readable> {
    const stream = await this.blobs.open(sha256, range);
    if (!stream) throw new OciError('BLOB_UNKNOWN', 'blob content is missing from storage');
    return stream;
  }

  async uploadMonolithic(ref: ImageRef, creatorId: number, digest: string, body: Readable): Promise<void> {
    const expected = this.expectDigest(digest);
    const staged = await this.stage(body);
    await this.saveBlob(ref, creatorId, staged, expected);
  }

  /** False when there is nothing to mount: the caller then opens an upload session, as the spec says. */
  async mount(ref: ImageRef, creatorId: number, digest: string, from: { owner: string; image: string } | undefined): Promise<boolean> {
    if (digestProblem(digest)) return false;
    if (from && from.owner !== ref.owner) return false;
    const sha256 = digestHex(digest);
    const hit = from
      ? await this.repo.findImageBlob(ref.ownerId, from.image, sha256)
      : await this.repo.findOwnerBlob(ref.ownerId, sha256);
    if (!hit) return false;
    await this.store.transaction(async (tx) => {
      await this.store.checkOwnerQuota(ref.ownerId, hit.size, tx);
      await this.attachToUploads(tx, ref, creatorId, hit.blobId, sha256);
    });
    return true;
  }

  async startUpload(ref: ImageRef): Promise<UploadRow> {
    const id = randomBytes(18).toString('base64url');
    const file = await this.blobs.tempPath();
    await writeFile(file, '', { flag: 'wx' });
    try {
      return await this.repo.createUpload(id, ref.ownerId, path.join('tmp', path.basename(file)));
    } catch (err) {
      await rm(file, { force: true });
      throw err;
    }
  }

  async upload(ref: ImageRef, id: string): Promise<UploadRow> {
    const row = /^[A-Za-z0-9_-]{1,64}$/.test(id) ? await this.repo.findUpload(id) : null;
    if (!row || row.ownerId !== ref.ownerId) throw new OciError('BLOB_UPLOAD_UNKNOWN', undefined, { upload: id.slice(0, 64) });
    return row;
  }

  /** Streams a chunk into the session file; on any failure the file is cut back to what it held. */
  async appendChunk(
    upload: UploadRow,
    body: Readable,
    range: ChunkRange | undefined | 'end',
    contentLength: number | undefined,
  ): Promise<number> {
    const received = Number(upload.bytesReceived);
    // 'end': the final chunk of a PUT, appended wherever the upload ends.
    if (range !== 'end') checkChunk(range, received, contentLength);
    const file = this.uploadFile(upload);
    const limit = this.store.maxFileBytes(CONTAINER);
    const counter = new ByteCounter(limit < 0 ? -1 : limit - received);
    try {
      await pipeline(body, counter, createWriteStream(file, { flags: 'r+', start: received }));
    } catch (err) {
      await truncate(file, received).catch(() => undefined);
      if (err instanceof BlobTooLargeError) throw sizeLimitExceeded('blob', limit);
      throw err;
    }
    const total = (await stat(file)).size;
    if (total !== received + counter.bytes) {
      await truncate(file, received).catch(() => undefined);
      throw new OciError('RANGE_INVALID', 'the upload changed while this chunk was written');
    }
    if (!(await this.repo.advanceUpload(upload.id, received, total))) {
      throw new OciError('RANGE_INVALID', 'another chunk of this upload was received at the same time');
    }
    return total;
  }

  /** Re-hashes the assembled file while copying it (Node cannot carry a hash's state across requests). */
  async finishUpload(ref: ImageRef, creatorId: number, upload: UploadRow, digest: string): Promise<void> {
    const expected = this.expectDigest(digest);
    const staged = await this.stage(createReadStream(this.uploadFile(upload)));
    await this.saveBlob(ref, creatorId, staged, expected);
    await this.cancelUpload(upload);
  }

  async cancelUpload(upload: UploadRow): Promise<void> {
    await this.repo.deleteUpload(upload.id);
    await rm(this.uploadFile(upload), { force: true });
  }

  /** Removes the blob from every version of the image (as Gitea); BLOB_UNKNOWN when it has none. */
  async deleteBlob(ref: ImageRef, digest: string): Promise<void> {
    if (digestProblem(digest)) throw new OciError('BLOB_UNKNOWN');
    await this.store.transaction(async (tx) => {
      await this.repo.lockImage(tx, ref.ownerId, ref.image);
      const files = await this.repo.filesWithBlob(tx, ref.ownerId, ref.image, digestHex(digest));
      if (files.length === 0) throw new OciError('BLOB_UNKNOWN', undefined, { digest });
      await this.repo.deleteFiles(tx, files.map((f) => f.id));
    });
  }


  /** Every referenced blob or manifest must be in the image already; a re-pushed tag keeps its download count. */
  async putManifest(
    ref: ImageRef,
    creatorId: number,
    reference: ManifestReference,
    body: Buffer,
    contentType: string | undefined,
  ): Promise<StoredManifest> {
    const limit = this.store.maxFileBytes(CONTAINER);
    if (limit >= 0 && body.length > limit) throw sizeLimitExceeded('manifest', limit);
    const manifest = parseManifest(body, contentType);
    const staged = await this.stage(Readable.from([body]));
    const digest = digestOfHex(staged.sha256);
    if (reference.kind === 'digest' && reference.digest !== digest) {
      await this.blobs.discard(staged);
      throw new OciError('DIGEST_INVALID', `manifest digest is ${digest}, not ${reference.digest}`);
    }
    const isTagged = reference.kind === 'tag';
    const version = isTagged ? reference.tag.toLowerCase() : digest;
    try {
      return await this.store.transaction(async (tx) => {
        await this.repo.lockImage(tx, ref.ownerId, ref.image);
        const files: { descriptor: Descriptor; blobId: number }[] = [];
        let metadata: ContainerMetadata;
        const references: string[] = [];
        if (manifest.kind === 'image') {
          for (const d of [manifest.config, ...manifest.layers]) {
            files.push({ descriptor: d, blobId: (await this.referencedBlob(tx, ref, d)).blobId });
          }
          metadata = imageMetadata(await this.configBytes(manifest.config), isTagged);
        } else {
          const entries = [];
          for (const entry of manifest.manifests) {
            const hit = await this.repo.findManifestByDigest(ref.ownerId, ref.image, digestHex(entry.digest), tx);
            if (!hit) throw new OciError('MANIFEST_BLOB_UNKNOWN', `manifest ${entry.digest} is not in ${ref.owner}/${ref.image}`, { digest: entry.digest });
            entries.push({ platform: entry.platform, digest: entry.digest, size: await this.repo.versionSize(hit.versionId, tx) });
            references.push(entry.digest);
          }
          metadata = indexMetadata(entries, isTagged);
        }
        await this.store.checkOwnerQuota(ref.ownerId, staged.size, tx);

        const pkg = await this.store.getOrCreatePackage(tx, { ownerId: ref.ownerId, type: CONTAINER, name: ref.image });
        await this.repo.ensureRepositoryProperty(tx, pkg.id, `${ref.owner}/${ref.image}`);
        const existing = await this.store.findVersion(pkg.id, version, tx);
        let versionId: number;
        if (existing) {
          await this.repo.clearVersion(tx, existing.id);
          await this.store.replaceVersionMetadata(tx, existing.id, asJson(metadata), creatorId);
          versionId = existing.id;
        } else {
          versionId = (await this.store.createVersion(tx, { packageId: pkg.id, version, creatorId, metadata: asJson(metadata) })).id;
        }
        const uploads = await this.store.findVersion(pkg.id, UPLOAD_VERSION, tx);
        for (const { descriptor, blobId } of files) {
          const sha256 = digestHex(descriptor.digest);
          await this.repo.addFileOnce(tx, {
            versionId, blobId, name: blobFileName(sha256), isLead: false, digest: descriptor.digest, mediaType: descriptor.mediaType,
          });
          if (uploads) await this.repo.removeFromUploads(tx, uploads.id, sha256);
        }
        const blob = await this.store.commitBlob(tx, staged);
        await this.repo.addFileOnce(tx, {
          versionId, blobId: blob.id, name: MANIFEST_FILENAME, isLead: true, digest, mediaType: manifest.mediaType,
        });
        if (isTagged) await this.repo.addProperty(tx, 'version', versionId, Props.tagged, '');
        for (const r of references) await this.repo.addProperty(tx, 'version', versionId, Props.manifestReference, r);
        if (uploads && (await this.store.countFiles(uploads.id, tx)) === 0) await this.store.deleteVersion(tx, uploads);
        return { digest, mediaType: manifest.mediaType, size: staged.size, sha256: staged.sha256, versionId };
      });
    } catch (err) {
      await this.blobs.discard(staged);
      throw mapDomainError(err);
    }
  }

  async manifest(ref: ImageRef, reference: ManifestReference): Promise<ManifestHit> {
    const hit = reference.kind === 'tag'
      ? await this.repo.findManifestByTag(ref.ownerId, ref.image, reference.tag)
      : await this.repo.findManifestByDigest(ref.ownerId, ref.image, digestHex(reference.digest));
    if (!hit) throw new OciError('MANIFEST_UNKNOWN', undefined, reference.kind === 'tag' ? { tag: reference.tag } : { digest: reference.digest });
    return hit;
  }

  countPull(versionId: number): Promise<void> {
    return this.store.countDownload(versionId);
  }

  /** Deletes the version a tag names, or every version holding a digest's manifest (`doerId`: the `package` event's sender). */
  async deleteManifest(ref: ImageRef, reference: ManifestReference, doerId: number | null): Promise<void> {
    await this.store.transaction(async (tx) => {
      await this.repo.lockImage(tx, ref.ownerId, ref.image);
      const pkg = await this.store.findPackage(ref.ownerId, CONTAINER, ref.image, tx);
      const versions = !pkg
        ? []
        : reference.kind === 'tag'
          ? [await this.store.findVersion(pkg.id, reference.tag, tx)].filter((v) => v !== null && !v.isInternal)
          : await this.repo.versionsWithManifest(tx, ref.ownerId, ref.image, digestHex(reference.digest));
      if (versions.length === 0) throw new OciError('MANIFEST_UNKNOWN');
      for (const v of versions) if (v) await this.store.deleteVersion(tx, v, doerId);
    });
  }


  async tags(ref: ImageRef, last: string, n: number | undefined): Promise<string[]> {
    const pkg = await this.store.findPackage(ref.ownerId, CONTAINER, ref.image);
    if (!pkg) throw new OciError('NAME_UNKNOWN', `repository ${ref.owner}/${ref.image} is not known`);
    return n === 0 ? [] : this.repo.tags(pkg.id, last.toLowerCase(), n);
  }

  /** Repository names for the catalog, in order after `last` (visibility is the caller's to filter). */
  repositoryNames(last: string, limit: number): Promise<string[]> {
    return this.repo.repositoryNames(last, limit);
  }


  private expectDigest(digest: string): string {
    const problem = digestProblem(digest);
    if (problem) throw new OciError('DIGEST_INVALID', problem);
    return digestHex(digest);
  }

  private async stage(content: Readable): Promise<StagedBlob> {
    const limit = this.store.maxFileBytes(CONTAINER);
    try {
      return await this.blobs.stage(content, { maxBytes: limit });
    } catch (err) {
      if (err instanceof BlobTooLargeError) throw sizeLimitExceeded('blob', limit);
      throw err;
    }
  }

  private async saveBlob(ref: ImageRef, creatorId: number, staged: StagedBlob, expectedSha256: string): Promise<void> {
    if (staged.sha256 !== expectedSha256) {
      await this.blobs.discard(staged);
      throw new OciError('DIGEST_INVALID', `content digest is sha256:${staged.sha256}, not sha256:${expectedSha256}`);
    }
    try {
      await this.store.transaction(async (tx) => {
        await this.store.checkOwnerQuota(ref.ownerId, staged.size, tx);
        const blob = await this.store.commitBlob(tx, staged);
        await this.attachToUploads(tx, ref, creatorId, blob.id, staged.sha256);
      });
    } catch (err) {
      await this.blobs.discard(staged);
      throw mapDomainError(err);
    }
  }

  private async attachToUploads(tx: Tx, ref: ImageRef, creatorId: number, blobId: number, sha256: string): Promise<void> {
    await this.repo.lockImage(tx, ref.ownerId, ref.image);
    const pkg = await this.store.getOrCreatePackage(tx, { ownerId: ref.ownerId, type: CONTAINER, name: ref.image });
    await this.repo.ensureRepositoryProperty(tx, pkg.id, `${ref.owner}/${ref.image}`);
    const uploads = await this.store.getOrCreateVersion(tx, { packageId: pkg.id, version: UPLOAD_VERSION, creatorId });
    if (!uploads.isInternal) await this.store.markVersionInternal(tx, uploads.id);
    await this.repo.addFileOnce(tx, {
      versionId: uploads.id, blobId, name: blobFileName(sha256), isLead: false, digest: digestOfHex(sha256),
      mediaType: 'application/octet-stream',
    });
  }

  /** A config or layer the manifest references: in the image, with the size the manifest says. */
  private async referencedBlob(tx: Tx, ref: ImageRef, d: Descriptor): Promise<BlobHit> {
    const hit = await this.repo.findImageBlob(ref.ownerId, ref.image, digestHex(d.digest), tx);
    if (!hit) throw new OciError('MANIFEST_BLOB_UNKNOWN', `blob ${d.digest} is not in ${ref.owner}/${ref.image}`, { digest: d.digest });
    if (hit.size !== d.size) throw new OciError('SIZE_INVALID', `blob ${d.digest} has ${hit.size} bytes, the manifest says ${d.size}`);
    return hit;
  }

  private async configBytes(config: Descriptor): Promise<Buffer | undefined> {
    if (config.size > MAX_CONFIG_BYTES_FOR_METADATA) return undefined;
    const stream = await this.blobs.open(digestHex(config.digest));
    if (!stream) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  private uploadFile(upload: UploadRow): string {
    // Only the file name is taken from the row: the folder is always the store's own tmp/.
    return path.join(this.blobs.tempDir, path.basename(upload.tempPath));
  }
}

class ByteCounter extends Transform {
  bytes = 0;

  constructor(private readonly allowance: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.allowance >= 0 && this.bytes > this.allowance) {
      done(new BlobTooLargeError(this.allowance));
      return;
    }
    done(null, chunk);
  }
}

function asJson(metadata: ContainerMetadata): Prisma.InputJsonValue {
  return JSON.parse(JSON.stringify(metadata)) as Prisma.InputJsonValue;
}

/** The owner's total size limit is the package store's DomainError; the registry answers it in its own format. */
function mapDomainError(err: unknown): unknown {
  if (err instanceof DomainError && err.code === ErrorCode.CONTENT_TOO_LARGE) {
    return new OciError('SIZE_INVALID', err.message, undefined, 413);
  }
  return err;
}
