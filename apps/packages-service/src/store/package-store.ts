import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, type PackageType } from '@cairn/contracts';
import { uniqueViolation } from '@cairn/platform';
import { Prisma } from '../generated/prisma/client.js';
import { PACKAGES_SETTINGS, type PackagesSettings } from '../config/packages-settings.js';
import { PrismaService, type Db, type Tx } from '../prisma/prisma.service.js';
import { BLOB_STORE, lockBlob } from '../storage/blob-lock.js';
import type { BlobStore, StagedBlob } from '@cairn/platform';
import { PackageEventRecorder } from '../events/package-event-recorder.js';

export type PackageRow = Prisma.PackageGetPayload<object>;
export type VersionRow = Prisma.PackageVersionGetPayload<object>;
export type FileRow = Prisma.PackageFileGetPayload<object>;
export type BlobRow = Prisma.PackageBlobGetPayload<object>;
export type FileWithBlob = Prisma.PackageFileGetPayload<{ include: { blob: true } }>;

/** Per-type file size limits' settings. */
const TYPE_LIMIT: Record<PackageType, keyof PackagesSettings> = {
  generic: 'limitSizeGeneric',
  npm: 'limitSizeNpm',
  container: 'limitSizeContainer',
};

/**
 * What every registry shares about package data (Gitea's `services/packages`): packages, versions, files and their
 * blobs, and the size limits. Writes that belong together run in one transaction passed in by the caller; a version
 * and its first file are created together, so an interrupted upload never leaves a version without its file.
 */
@Injectable()
export class PackageStore {
  constructor(
    readonly prisma: PrismaService,
    @Inject(BLOB_STORE) readonly blobs: BlobStore,
    @Inject(PACKAGES_SETTINGS) private readonly settings: PackagesSettings,
    private readonly events: PackageEventRecorder,
  ) {}

  /**
   * Runs `fn` in a transaction (long enough for a blob's rename and fsync); the `package` events it recorded are
   * published once it committed.
   */
  async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const result = await this.prisma.$transaction(fn, { timeout: 60_000, maxWait: 10_000 });
    this.events.kick();
    return result;
  }

  // ---- limits ------------------------------------------------------------------------------------------------

  /** The largest file a registry type accepts (-1: no limit): what `BlobStore.stage` is given as `maxBytes`. */
  maxFileBytes(type: PackageType): number {
    return this.settings[TYPE_LIMIT[type]] as number;
  }

  /** Refuses (CONTENT_TOO_LARGE) a file over its type's limit. */
  checkFileSize(type: PackageType, size: number): void {
    const max = this.maxFileBytes(type);
    if (max >= 0 && size > max) {
      throw new DomainError(ErrorCode.CONTENT_TOO_LARGE, `package file is too large: the ${type} limit (LIMIT_SIZE_${type.toUpperCase()}) is ${max} bytes`);
    }
  }

  /** Refuses (CONTENT_TOO_LARGE) adding `size` bytes when it would take the owner over `LIMIT_TOTAL_OWNER_SIZE`. */
  async checkOwnerQuota(ownerId: number, size: number, db: Db = this.prisma): Promise<void> {
    const max = this.settings.limitTotalOwnerSize;
    if (max < 0) return;
    const used = await this.ownerTotalSize(ownerId, db);
    if (used + size > max) {
      throw new DomainError(
        ErrorCode.CONTENT_TOO_LARGE,
        `the owner's packages would exceed their total size limit (LIMIT_TOTAL_OWNER_SIZE) of ${max} bytes (${used} used)`,
      );
    }
  }

  /** The bytes of every file of the owner's packages (a blob shared by two files counts twice, as in Gitea). */
  async ownerTotalSize(ownerId: number, db: Db = this.prisma): Promise<number> {
    const rows = await db.$queryRaw<Array<{ total: bigint | null }>>`
      SELECT SUM(b.size) AS total FROM packages.package_file f
      JOIN packages.package_blob b ON b.id = f.blob_id
      JOIN packages.package_version v ON v.id = f.version_id
      JOIN packages.package p ON p.id = v.package_id
      WHERE p.owner_id = ${ownerId}`;
    return Number(rows[0]?.total ?? 0);
  }

  // ---- packages and versions ---------------------------------------------------------------------------------

  findPackage(ownerId: number, type: PackageType, name: string, db: Db = this.prisma): Promise<PackageRow | null> {
    return db.package.findUnique({
      where: { ownerId_type_lowerName: { ownerId, type, lowerName: name.toLowerCase() } },
    });
  }

  /**
   * The package, created when missing (concurrent creators get the same row), held with a share lock until the
   * transaction ends: a concurrent delete ({@link lockPackage}) waits for this upload to commit and then counts what
   * it added, so it never removes a version or package an upload just wrote to. A package deleted while this waited
   * for the lock is created again.
   */
  async getOrCreatePackage(
    tx: Tx,
    p: { ownerId: number; type: PackageType; name: string; semverCompatible?: boolean; isInternal?: boolean },
  ): Promise<PackageRow> {
    const lowerName = p.name.toLowerCase();
    for (let attempt = 0; attempt < 3; attempt++) {
      await tx.$executeRaw`
        INSERT INTO packages.package (owner_id, type, name, lower_name, semver_compatible, is_internal)
        VALUES (${p.ownerId}, ${p.type}, ${p.name}, ${lowerName}, ${p.semverCompatible ?? false}, ${p.isInternal ?? false})
        ON CONFLICT (owner_id, type, lower_name) DO NOTHING`;
      const held = await tx.$queryRaw<Array<{ id: number }>>`
        SELECT id FROM packages.package WHERE owner_id = ${p.ownerId} AND type = ${p.type} AND lower_name = ${lowerName} FOR SHARE`;
      if (held.length) return tx.package.findUniqueOrThrow({ where: { id: held[0].id } });
    }
    throw DomainError.conflict('the package was deleted while this upload was recorded; try again');
  }

  /**
   * Locks a package against uploads until the transaction ends (they hold {@link getOrCreatePackage}'s share lock):
   * every delete takes it before it counts files or versions, so the counts include every upload that committed.
   * False when the package is gone.
   */
  async lockPackage(tx: Tx, packageId: number): Promise<boolean> {
    const held = await tx.$queryRaw<Array<{ id: number }>>`SELECT id FROM packages.package WHERE id = ${packageId} FOR UPDATE`;
    return held.length > 0;
  }

  findVersion(packageId: number, version: string, db: Db = this.prisma): Promise<VersionRow | null> {
    return db.packageVersion.findUnique({
      where: { packageId_lowerVersion: { packageId, lowerVersion: version.toLowerCase() } },
    });
  }

  /** Creates a version; an existing one is ALREADY_EXISTS (409). */
  async createVersion(
    tx: Tx,
    v: { packageId: number; version: string; creatorId: number; metadata?: Prisma.InputJsonValue; isInternal?: boolean },
  ): Promise<VersionRow> {
    let row: VersionRow;
    try {
      row = await tx.packageVersion.create({
        data: {
          packageId: v.packageId,
          version: v.version,
          lowerVersion: v.version.toLowerCase(),
          creatorId: v.creatorId,
          metadata: v.metadata ?? {},
          isInternal: v.isInternal ?? false,
        },
      });
    } catch (err) {
      if (uniqueViolation(err) !== null) throw DomainError.alreadyExists('package version already exists');
      throw err;
    }
    await this.events.record(tx, 'created', row.id, v.creatorId || null);
    return row;
  }

  /** The version, created when missing (for registries whose versions gather files one upload at a time). */
  async getOrCreateVersion(
    tx: Tx,
    v: { packageId: number; version: string; creatorId: number; metadata?: Prisma.InputJsonValue },
  ): Promise<VersionRow> {
    const lowerVersion = v.version.toLowerCase();
    const created = await tx.$queryRaw<Array<{ id: number }>>`
      INSERT INTO packages.package_version (package_id, version, lower_version, creator_id, metadata)
      VALUES (${v.packageId}, ${v.version}, ${lowerVersion}, ${v.creatorId}, ${JSON.stringify(v.metadata ?? {})}::jsonb)
      ON CONFLICT (package_id, lower_version) DO NOTHING RETURNING id`;
    // Only the upload that created the version makes the `package` event (Gitea's PackageCreate).
    if (created.length) await this.events.record(tx, 'created', created[0].id, v.creatorId || null);
    return tx.packageVersion.findUniqueOrThrow({ where: { packageId_lowerVersion: { packageId: v.packageId, lowerVersion } } });
  }

  /**
   * Moves a staged blob to its address and records it (one row per sha256), under the blob's lock so the cleanup
   * cannot retire it in between (see blob-cleanup.ts); clears a cleanup mark. Call inside the transaction that
   * references the blob.
   */
  async commitBlob(tx: Tx, staged: StagedBlob): Promise<BlobRow> {
    await lockBlob(tx, staged.sha256);
    await this.blobs.commit(staged);
    return tx.packageBlob.upsert({
      where: { hashSha256: staged.sha256 },
      create: {
        size: BigInt(staged.size),
        hashMd5: staged.md5,
        hashSha1: staged.sha1,
        hashSha256: staged.sha256,
        hashSha512: staged.sha512,
      },
      update: { unreferencedSince: null },
    });
  }

  /** Adds a file to a version; a file of the same name (and composite key) is ALREADY_EXISTS (409). */
  async addFile(
    tx: Tx,
    f: { versionId: number; blobId: number; name: string; compositeKey?: string; isLead?: boolean },
  ): Promise<FileRow> {
    try {
      return await tx.packageFile.create({
        data: {
          versionId: f.versionId,
          blobId: f.blobId,
          name: f.name,
          lowerName: f.name.toLowerCase(),
          compositeKey: f.compositeKey ?? '',
          isLead: f.isLead ?? false,
        },
      });
    } catch (err) {
      if (uniqueViolation(err) !== null) throw DomainError.alreadyExists('package file already exists');
      throw err;
    }
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

  /** Deletes a file; its blob may become unreferenced (the cleanup deletes it later). */
  async deleteFile(tx: Tx, fileId: number): Promise<void> {
    await tx.packageFile.delete({ where: { id: fileId } });
  }

  /**
   * Deletes a version with its files and properties; deletes the package too when it was its last version. Records
   * the `package` event `deleted` (sent by `doerId`; null: unknown) before the rows go, as the payload shows them.
   */
  async deleteVersion(tx: Tx, version: VersionRow, doerId: number | null = null): Promise<void> {
    // Uploads to the package finish first; a version another delete removed meanwhile is gone already.
    await this.lockPackage(tx, version.packageId);
    if (!(await tx.packageVersion.findUnique({ where: { id: version.id }, select: { id: true } }))) return;
    await this.events.record(tx, 'deleted', version.id, doerId);
    const files = await tx.packageFile.findMany({ where: { versionId: version.id }, select: { id: true } });
    await tx.packageProperty.deleteMany({ where: { refType: 'file', refId: { in: files.map((f) => f.id) } } });
    await tx.packageProperty.deleteMany({ where: { refType: 'version', refId: version.id } });
    await tx.packageVersion.delete({ where: { id: version.id } });
    await this.deletePackageIfEmpty(tx, version.packageId);
  }

  /** Deletes a package that has no version left (and its properties). */
  async deletePackageIfEmpty(tx: Tx, packageId: number): Promise<boolean> {
    if ((await tx.packageVersion.count({ where: { packageId } })) > 0) return false;
    await tx.packageProperty.deleteMany({ where: { refType: 'package', refId: packageId } });
    await tx.package.delete({ where: { id: packageId } });
    return true;
  }

  /** Counts a download (best effort: a failure is the caller's to log, never the download's). */
  async countDownload(versionId: number): Promise<void> {
    await this.prisma.packageVersion.update({ where: { id: versionId }, data: { downloadCount: { increment: 1 } } });
  }
}
