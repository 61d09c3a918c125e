import { Injectable } from '@nestjs/common';
import type { PackageType } from '@cairn/contracts';
import type { Prisma } from '../generated/prisma/client.js';
import { PrismaService, type Db, type Tx } from '../prisma/prisma.service.js';

export type { BlobRow } from '../storage/blobs.repository.js';

export type PackageRow = Prisma.PackageGetPayload<object>;
export type VersionRow = Prisma.PackageVersionGetPayload<object>;
export type FileRow = Prisma.PackageFileGetPayload<object>;
export type FileWithBlob = Prisma.PackageFileGetPayload<{ include: { blob: true } }>;

@Injectable()
export class PackagesRepository {
  constructor(readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn, { timeout: 60_000, maxWait: 10_000 });
  }

  async ownerTotalSize(ownerId: number, db: Db = this.prisma): Promise<number> {
    const rows = await db.$queryRaw<Array<{ total: bigint | null }>>`
      SELECT SUM(b.size) AS total FROM packages.package_file f
      JOIN packages.package_blob b ON b.id = f.blob_id
      JOIN packages.package_version v ON v.id = f.version_id
      JOIN packages.package p ON p.id = v.package_id
      WHERE p.owner_id = ${ownerId}`;
    return Number(rows[0]?.total ?? 0);
  }

  findPackage(ownerId: number, type: PackageType, name: string, db: Db = this.prisma): Promise<PackageRow | null> {
    return db.package.findUnique({
      where: { ownerId_type_lowerName: { ownerId, type, lowerName: name.toLowerCase() } },
    });
  }

  /**
   * The package, inserted when missing, held with a share lock until the transaction ends (see
   * `PackageStore.getOrCreatePackage`); null when it was deleted between the insert and the lock.
   */
  async insertAndShareLockPackage(
    tx: Tx,
    p: { ownerId: number; type: PackageType; name: string; semverCompatible?: boolean; isInternal?: boolean },
  ): Promise<PackageRow | null> {
    const lowerName = p.name.toLowerCase();
    await tx.$executeRaw`
      INSERT INTO packages.package (owner_id, type, name, lower_name, semver_compatible, is_internal)
      VALUES (${p.ownerId}, ${p.type}, ${p.name}, ${lowerName}, ${p.semverCompatible ?? false}, ${p.isInternal ?? false})
      ON CONFLICT (owner_id, type, lower_name) DO NOTHING`;
    const held = await tx.$queryRaw<Array<{ id: number }>>`
      SELECT id FROM packages.package WHERE owner_id = ${p.ownerId} AND type = ${p.type} AND lower_name = ${lowerName} FOR SHARE`;
    return held.length ? tx.package.findUniqueOrThrow({ where: { id: held[0].id } }) : null;
  }

  async lockPackage(tx: Tx, packageId: number): Promise<boolean> {
    const held = await tx.$queryRaw<Array<{ id: number }>>`SELECT id FROM packages.package WHERE id = ${packageId} FOR UPDATE`;
    return held.length > 0;
  }

  findVersion(packageId: number, version: string, db: Db = this.prisma): Promise<VersionRow | null> {
    return db.packageVersion.findUnique({
      where: { packageId_lowerVersion: { packageId, lowerVersion: version.toLowerCase() } },
    });
  }

  findVersionById(id: number, db: Db = this.prisma): Promise<VersionRow | null> {
    return db.packageVersion.findUnique({ where: { id } });
  }

  versionsOfPackage(packageId: number, db: Db = this.prisma): Promise<VersionRow[]> {
    return db.packageVersion.findMany({ where: { packageId } });
  }

  insertVersion(
    tx: Tx,
    v: { packageId: number; version: string; creatorId: number; metadata?: Prisma.InputJsonValue; isInternal?: boolean },
  ): Promise<VersionRow> {
    return tx.packageVersion.create({
      data: {
        packageId: v.packageId,
        version: v.version,
        lowerVersion: v.version.toLowerCase(),
        creatorId: v.creatorId,
        metadata: v.metadata ?? {},
        isInternal: v.isInternal ?? false,
      },
    });
  }

  /** The version, inserted when missing; `created` tells whether this call inserted it. */
  async insertVersionIfMissing(
    tx: Tx,
    v: { packageId: number; version: string; creatorId: number; metadata?: Prisma.InputJsonValue },
  ): Promise<{ row: VersionRow; created: boolean }> {
    const lowerVersion = v.version.toLowerCase();
    const created = await tx.$queryRaw<Array<{ id: number }>>`
      INSERT INTO packages.package_version (package_id, version, lower_version, creator_id, metadata)
      VALUES (${v.packageId}, ${v.version}, ${lowerVersion}, ${v.creatorId}, ${JSON.stringify(v.metadata ?? {})}::jsonb)
      ON CONFLICT (package_id, lower_version) DO NOTHING RETURNING id`;
    const row = await tx.packageVersion.findUniqueOrThrow({ where: { packageId_lowerVersion: { packageId: v.packageId, lowerVersion } } });
    return { row, created: created.length > 0 };
  }

  async replaceVersionMetadata(tx: Tx, versionId: number, metadata: Prisma.InputJsonValue, creatorId: number): Promise<void> {
    await tx.packageVersion.update({ where: { id: versionId }, data: { metadata, creatorId, createdAt: new Date() } });
  }

  async markVersionInternal(tx: Tx, versionId: number): Promise<void> {
    await tx.packageVersion.update({ where: { id: versionId }, data: { isInternal: true } });
  }

  insertFile(
    tx: Tx,
    f: { versionId: number; blobId: number; name: string; compositeKey?: string; isLead?: boolean },
  ): Promise<FileRow> {
    return tx.packageFile.create({
      data: {
        versionId: f.versionId,
        blobId: f.blobId,
        name: f.name,
        lowerName: f.name.toLowerCase(),
        compositeKey: f.compositeKey ?? '',
        isLead: f.isLead ?? false,
      },
    });
  }

  findFile(versionId: number, name: string, compositeKey = '', db: Db = this.prisma): Promise<FileWithBlob | null> {
    return db.packageFile.findUnique({
      where: { versionId_lowerName_compositeKey: { versionId, lowerName: name.toLowerCase(), compositeKey } },
      include: { blob: true },
    });
  }

  countFiles(versionId: number, db: Db = this.prisma): Promise<number> {
    return db.packageFile.count({ where: { versionId } });
  }

  async deleteFile(tx: Tx, fileId: number): Promise<void> {
    await tx.packageFile.delete({ where: { id: fileId } });
  }

  async deleteVersion(tx: Tx, versionId: number): Promise<void> {
    const files = await tx.packageFile.findMany({ where: { versionId }, select: { id: true } });
    await tx.packageProperty.deleteMany({ where: { refType: 'file', refId: { in: files.map((f) => f.id) } } });
    await tx.packageProperty.deleteMany({ where: { refType: 'version', refId: versionId } });
    await tx.packageVersion.delete({ where: { id: versionId } });
  }

  async deletePackageIfEmpty(tx: Tx, packageId: number): Promise<boolean> {
    if ((await tx.packageVersion.count({ where: { packageId } })) > 0) return false;
    await tx.packageProperty.deleteMany({ where: { refType: 'package', refId: packageId } });
    await tx.package.delete({ where: { id: packageId } });
    return true;
  }

  async countDownload(versionId: number): Promise<void> {
    await this.prisma.packageVersion.update({ where: { id: versionId }, data: { downloadCount: { increment: 1 } } });
  }
}
