// As Gitea stores them: a package per image, a version per tag or digest, blobs before their manifest in `_upload`.
import { Prisma } from '../../generated/prisma/client.js';
import type { PrismaService, Db, Tx } from '../../prisma/prisma.service.js';
import { lockForTransaction } from '@cairn/platform';

export const CONTAINER = 'container';
/** Gitea's internal version holding blobs not yet referenced by a manifest. */
export const UPLOAD_VERSION = '_upload';
export const MANIFEST_FILENAME = 'manifest.json';

export const Props = {
  repository: 'container.repository',
  digest: 'container.digest',
  mediaType: 'container.mediatype',
  tagged: 'container.manifest.tagged',
  manifestReference: 'container.manifest.reference',
} as const;

export function blobFileName(sha256: string): string {
  return `sha256_${sha256}`;
}

export interface BlobHit {
  blobId: number;
  sha256: string;
  size: number;
  mediaType: string | null;
}

export interface ManifestHit extends BlobHit {
  versionId: number;
  fileId: number;
}

export type UploadRow = Prisma.PackageBlobUploadGetPayload<object>;

/** Advisory-lock class of container images ("OCII"): manifest writes of one image serialise. */
const IMAGE_LOCK_CLASS = 0x4f434949;

export class ContainerRepository {
  constructor(readonly prisma: PrismaService) {}

  async lockImage(tx: Tx, ownerId: number, image: string): Promise<void> {
    await lockForTransaction(tx, IMAGE_LOCK_CLASS, `${ownerId}/${image}`);
  }

  async findImageBlob(ownerId: number, image: string, sha256: string, db: Db = this.prisma): Promise<BlobHit | null> {
    const rows = await db.$queryRaw<Array<{ blob_id: number; size: bigint; file_id: number }>>`
      SELECT b.id AS blob_id, b.size, f.id AS file_id FROM packages.package_blob b
      JOIN packages.package_file f ON f.blob_id = b.id
      JOIN packages.package_version v ON v.id = f.version_id
      JOIN packages.package p ON p.id = v.package_id
      WHERE b.hash_sha256 = ${sha256} AND p.owner_id = ${ownerId} AND p.type = ${CONTAINER} AND p.lower_name = ${image}
      ORDER BY f.is_lead, f.id LIMIT 1`;
    if (rows.length === 0) return null;
    return { blobId: rows[0].blob_id, sha256, size: Number(rows[0].size), mediaType: await this.fileProp(rows[0].file_id, Props.mediaType, db) };
  }

  /** A blob in any image of the owner (a mount without `from`). */
  async findOwnerBlob(ownerId: number, sha256: string, db: Db = this.prisma): Promise<BlobHit | null> {
    const rows = await db.$queryRaw<Array<{ blob_id: number; size: bigint }>>`
      SELECT b.id AS blob_id, b.size FROM packages.package_blob b
      JOIN packages.package_file f ON f.blob_id = b.id
      JOIN packages.package_version v ON v.id = f.version_id
      JOIN packages.package p ON p.id = v.package_id
      WHERE b.hash_sha256 = ${sha256} AND p.owner_id = ${ownerId} AND p.type = ${CONTAINER} LIMIT 1`;
    return rows.length === 0 ? null : { blobId: rows[0].blob_id, sha256, size: Number(rows[0].size), mediaType: null };
  }

  findManifestByTag(ownerId: number, image: string, tag: string, db: Db = this.prisma): Promise<ManifestHit | null> {
    return this.findManifest(ownerId, image, Prisma.sql`v.lower_version = ${tag.toLowerCase()} AND NOT v.is_internal`, db);
  }

  findManifestByDigest(ownerId: number, image: string, sha256: string, db: Db = this.prisma): Promise<ManifestHit | null> {
    return this.findManifest(ownerId, image, Prisma.sql`b.hash_sha256 = ${sha256}`, db);
  }

  private async findManifest(ownerId: number, image: string, condition: Prisma.Sql, db: Db): Promise<ManifestHit | null> {
    const rows = await db.$queryRaw<Array<{ version_id: number; file_id: number; blob_id: number; size: bigint; sha256: string }>>`
      SELECT v.id AS version_id, f.id AS file_id, b.id AS blob_id, b.size, b.hash_sha256 AS sha256
      FROM packages.package p
      JOIN packages.package_version v ON v.package_id = p.id
      JOIN packages.package_file f ON f.version_id = v.id AND f.is_lead
      JOIN packages.package_blob b ON b.id = f.blob_id
      WHERE p.owner_id = ${ownerId} AND p.type = ${CONTAINER} AND p.lower_name = ${image} AND ${condition}
      ORDER BY v.id LIMIT 1`;
    return this.manifestHit(rows[0], db);
  }

  /** Every version whose manifest has this digest (a DELETE by digest removes them all, as Gitea). */
  versionsWithManifest(tx: Tx, ownerId: number, image: string, sha256: string) {
    return tx.packageVersion.findMany({
      where: {
        package: { ownerId, type: CONTAINER, lowerName: image },
        isInternal: false,
        files: { some: { isLead: true, blob: { hashSha256: sha256 } } },
      },
    });
  }

  /** The files of the image (any version) holding a blob: what a blob DELETE removes. */
  filesWithBlob(tx: Tx, ownerId: number, image: string, sha256: string) {
    return tx.packageFile.findMany({
      where: { blob: { hashSha256: sha256 }, version: { package: { ownerId, type: CONTAINER, lowerName: image } } },
      select: { id: true },
    });
  }

  /** The bytes of every file of a version (an index entry's size, as Gitea computes it). */
  async versionSize(versionId: number, db: Db = this.prisma): Promise<number> {
    const rows = await db.$queryRaw<Array<{ total: bigint | null }>>`
      SELECT SUM(b.size) AS total FROM packages.package_file f JOIN packages.package_blob b ON b.id = f.blob_id
      WHERE f.version_id = ${versionId}`;
    return Number(rows[0]?.total ?? 0);
  }

  async tags(packageId: number, last: string, n: number | undefined, db: Db = this.prisma): Promise<string[]> {
    // LIMIT NULL is no limit; COLLATE "C" gives the same order whatever the database's locale.
    const rows = await db.$queryRaw<Array<{ version: string }>>`
      SELECT v.version FROM packages.package_version v
      WHERE v.package_id = ${packageId} AND NOT v.is_internal AND v.lower_version COLLATE "C" > ${last}
        AND EXISTS (SELECT 1 FROM packages.package_property pp
                    WHERE pp.ref_type = 'version' AND pp.ref_id = v.id AND pp.name = ${Props.tagged})
      ORDER BY v.lower_version COLLATE "C" LIMIT ${n ?? null}`;
    return rows.map((r) => r.version);
  }

  /** Images with a version that is not internal (catalog candidates; the caller filters by owner visibility). */
  async repositoryNames(last: string, limit: number, db: Db = this.prisma): Promise<string[]> {
    const rows = await db.$queryRaw<Array<{ value: string }>>`
      SELECT pp.value FROM packages.package p
      JOIN packages.package_property pp ON pp.ref_type = 'package' AND pp.ref_id = p.id AND pp.name = ${Props.repository}
      WHERE p.type = ${CONTAINER} AND pp.value COLLATE "C" > ${last}
        AND EXISTS (SELECT 1 FROM packages.package_version v WHERE v.package_id = p.id AND NOT v.is_internal)
      ORDER BY pp.value COLLATE "C" LIMIT ${limit}`;
    return rows.map((r) => r.value);
  }


  async addProperty(tx: Tx, refType: 'version' | 'file' | 'package', refId: number, name: string, value: string): Promise<void> {
    await tx.packageProperty.create({ data: { refType, refId, name, value } });
  }

  async ensureRepositoryProperty(tx: Tx, packageId: number, repository: string): Promise<void> {
    const found = await tx.packageProperty.findFirst({ where: { refType: 'package', refId: packageId, name: Props.repository } });
    if (!found) await this.addProperty(tx, 'package', packageId, Props.repository, repository);
  }

  /** Empties a version for an overwrite (a tag pushed again): files and properties go, the row (and its download count) stays. */
  async clearVersion(tx: Tx, versionId: number): Promise<void> {
    const files = await tx.packageFile.findMany({ where: { versionId }, select: { id: true } });
    await tx.packageProperty.deleteMany({ where: { refType: 'file', refId: { in: files.map((f) => f.id) } } });
    await tx.packageFile.deleteMany({ where: { versionId } });
    await tx.packageProperty.deleteMany({ where: { refType: 'version', refId: versionId } });
  }

  /** Adds a file (skipped when the version already has it: a layer may appear twice in one manifest). */
  async addFileOnce(
    tx: Tx,
    f: { versionId: number; blobId: number; name: string; isLead: boolean; digest: string; mediaType: string },
  ): Promise<void> {
    const lowerName = f.name.toLowerCase();
    const exists = await tx.packageFile.findFirst({ where: { versionId: f.versionId, lowerName, compositeKey: '' } });
    if (exists) return;
    const file = await tx.packageFile.create({
      data: { versionId: f.versionId, blobId: f.blobId, name: f.name, lowerName, isLead: f.isLead },
    });
    await this.addProperty(tx, 'file', file.id, Props.digest, f.digest);
    await this.addProperty(tx, 'file', file.id, Props.mediaType, f.mediaType);
  }

  async removeFromUploads(tx: Tx, uploadVersionId: number, sha256: string): Promise<void> {
    const files = await tx.packageFile.findMany({
      where: { versionId: uploadVersionId, blob: { hashSha256: sha256 } },
      select: { id: true },
    });
    await this.deleteFiles(tx, files.map((x) => x.id));
  }

  async deleteFiles(tx: Tx, fileIds: number[]): Promise<void> {
    if (fileIds.length === 0) return;
    await tx.packageProperty.deleteMany({ where: { refType: 'file', refId: { in: fileIds } } });
    await tx.packageFile.deleteMany({ where: { id: { in: fileIds } } });
  }


  createUpload(id: string, ownerId: number, tempPath: string): Promise<UploadRow> {
    return this.prisma.packageBlobUpload.create({ data: { id, ownerId, tempPath } });
  }

  findUpload(id: string): Promise<UploadRow | null> {
    return this.prisma.packageBlobUpload.findUnique({ where: { id } });
  }

  /** Moves the received count forward only from what the caller read (false: another request moved it first). */
  async advanceUpload(id: string, from: number, to: number): Promise<boolean> {
    const res = await this.prisma.packageBlobUpload.updateMany({
      where: { id, bytesReceived: BigInt(from) },
      data: { bytesReceived: BigInt(to) },
    });
    return res.count === 1;
  }

  async deleteUpload(id: string): Promise<void> {
    await this.prisma.packageBlobUpload.deleteMany({ where: { id } });
  }

  private async fileProp(fileId: number, name: string, db: Db): Promise<string | null> {
    const p = await db.packageProperty.findFirst({ where: { refType: 'file', refId: fileId, name }, select: { value: true } });
    return p?.value ?? null;
  }

  private async manifestHit(
    row: { version_id: number; file_id: number; blob_id: number; size: bigint; sha256: string } | undefined,
    db: Db,
  ): Promise<ManifestHit | null> {
    if (!row) return null;
    return {
      versionId: row.version_id,
      fileId: row.file_id,
      blobId: row.blob_id,
      sha256: row.sha256,
      size: Number(row.size),
      mediaType: await this.fileProp(row.file_id, Props.mediaType, db),
    };
  }
}
