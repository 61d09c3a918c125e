import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, type PackageType } from '@cairn/contracts';
import { uniqueViolation } from '@cairn/platform';
import type { Prisma } from '../generated/prisma/client.js';
import { PACKAGES_SETTINGS, type PackagesSettings } from '../config/packages-settings.js';
import type { Db, Tx } from '../prisma/prisma.service.js';
import type { BlobStore, StagedBlob } from '@cairn/platform';
import { BLOB_STORE } from '../storage/blob-store.token.js';
import { BlobsRepository } from '../storage/blobs.repository.js';
import { PACKAGE_EVENT_SINK, type PackageEventSink } from './package-event-sink.js';
import {
  PackagesRepository, type BlobRow, type FileRow, type FileWithBlob, type PackageRow, type VersionRow,
} from './packages.repository.js';

export type { BlobRow, FileRow, FileWithBlob, PackageRow, VersionRow };

const TYPE_LIMIT: Record<PackageType, keyof PackagesSettings> = {
  generic: 'limitSizeGeneric',
  npm: 'limitSizeNpm',
  container: 'limitSizeContainer',
};

/** Shared by every registry (Gitea's `services/packages`); a version and its first file are created together. */
@Injectable()
export class PackageStore {
  constructor(
    private readonly rows: PackagesRepository,
    private readonly blobRows: BlobsRepository,
    @Inject(BLOB_STORE) readonly blobs: BlobStore,
    @Inject(PACKAGES_SETTINGS) private readonly settings: PackagesSettings,
    @Inject(PACKAGE_EVENT_SINK) private readonly events: PackageEventSink,
  ) {}

  /** The `package` events `fn` recorded are published once it committed. */
  async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const result = await this.rows.transaction(fn);
    this.events.kick();
    return result;
  }


  /** The largest file a registry type accepts (-1: no limit): what `BlobStore.stage` is given as `maxBytes`. */
  maxFileBytes(type: PackageType): number {
    return this.settings[TYPE_LIMIT[type]] as number;
  }

  checkFileSize(type: PackageType, size: number): void {
    const max = this.maxFileBytes(type);
    if (max >= 0 && size > max) {
      throw new DomainError(ErrorCode.CONTENT_TOO_LARGE, `package file is too large: the ${type} limit (LIMIT_SIZE_${type.toUpperCase()}) is ${max} bytes`);
    }
  }

  async checkOwnerQuota(ownerId: number, size: number, db?: Db): Promise<void> {
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
  ownerTotalSize(ownerId: number, db?: Db): Promise<number> {
    return this.rows.ownerTotalSize(ownerId, db);
  }


  findPackage(ownerId: number, type: PackageType, name: string, db?: Db): Promise<PackageRow | null> {
    return this.rows.findPackage(ownerId, type, name, db);
  }

  /** Share-locked until commit: a concurrent delete ({@link lockPackage}) waits, then counts what this added. */
  async getOrCreatePackage(
    tx: Tx,
    p: { ownerId: number; type: PackageType; name: string; semverCompatible?: boolean; isInternal?: boolean },
  ): Promise<PackageRow> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const held = await this.rows.insertAndShareLockPackage(tx, p);
      if (held) return held;
    }
    throw DomainError.conflict('the package was deleted while this upload was recorded; try again');
  }

  /** Every delete takes this lock before counting, so its counts include every upload that committed; false: gone. */
  lockPackage(tx: Tx, packageId: number): Promise<boolean> {
    return this.rows.lockPackage(tx, packageId);
  }

  findVersion(packageId: number, version: string, db?: Db): Promise<VersionRow | null> {
    return this.rows.findVersion(packageId, version, db);
  }

  findVersionById(id: number, db?: Db): Promise<VersionRow | null> {
    return this.rows.findVersionById(id, db);
  }

  versionsOfPackage(packageId: number, db?: Db): Promise<VersionRow[]> {
    return this.rows.versionsOfPackage(packageId, db);
  }

  async createVersion(
    tx: Tx,
    v: { packageId: number; version: string; creatorId: number; metadata?: Prisma.InputJsonValue; isInternal?: boolean },
  ): Promise<VersionRow> {
    let row: VersionRow;
    try {
      row = await this.rows.insertVersion(tx, v);
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
    const { row, created } = await this.rows.insertVersionIfMissing(tx, v);
    // Only the upload that created the version makes the `package` event (Gitea's PackageCreate).
    if (created) await this.events.record(tx, 'created', row.id, v.creatorId || null);
    return row;
  }

  /** Moves a staged blob to its address and records it under the blob's lock, so the cleanup cannot retire it meanwhile. */
  async commitBlob(tx: Tx, staged: StagedBlob): Promise<BlobRow> {
    await this.blobRows.lock(tx, staged.sha256);
    await this.blobs.commit(staged);
    return this.blobRows.record(tx, staged);
  }

  async addFile(
    tx: Tx,
    f: { versionId: number; blobId: number; name: string; compositeKey?: string; isLead?: boolean },
  ): Promise<FileRow> {
    try {
      return await this.rows.insertFile(tx, f);
    } catch (err) {
      if (uniqueViolation(err) !== null) throw DomainError.alreadyExists('package file already exists');
      throw err;
    }
  }

  findFile(versionId: number, name: string, compositeKey = '', db?: Db): Promise<FileWithBlob | null> {
    return this.rows.findFile(versionId, name, compositeKey, db);
  }

  countFiles(versionId: number, db?: Db): Promise<number> {
    return this.rows.countFiles(versionId, db);
  }

  /** Deletes a file; its blob may become unreferenced (the cleanup deletes it later). */
  deleteFile(tx: Tx, fileId: number): Promise<void> {
    return this.rows.deleteFile(tx, fileId);
  }

  /** The `package` event `deleted` is recorded before the rows go; the last version takes its package along. */
  async deleteVersion(tx: Tx, version: VersionRow, doerId: number | null = null): Promise<void> {
    // Uploads to the package finish first; a version another delete removed meanwhile is gone already.
    await this.lockPackage(tx, version.packageId);
    if (!(await this.rows.findVersionById(version.id, tx))) return;
    await this.events.record(tx, 'deleted', version.id, doerId);
    await this.rows.deleteVersion(tx, version.id);
    await this.rows.deletePackageIfEmpty(tx, version.packageId);
  }

  deletePackageIfEmpty(tx: Tx, packageId: number): Promise<boolean> {
    return this.rows.deletePackageIfEmpty(tx, packageId);
  }

  /** Counts a download (best effort: a failure is the caller's to log, never the download's). */
  countDownload(versionId: number): Promise<void> {
    return this.rows.countDownload(versionId);
  }

  replaceVersionMetadata(tx: Tx, versionId: number, metadata: Prisma.InputJsonValue, creatorId: number): Promise<void> {
    return this.rows.replaceVersionMetadata(tx, versionId, metadata, creatorId);
  }

  markVersionInternal(tx: Tx, versionId: number): Promise<void> {
    return this.rows.markVersionInternal(tx, versionId);
  }
}
