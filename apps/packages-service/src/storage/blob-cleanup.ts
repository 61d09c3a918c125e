import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PACKAGES_SETTINGS, type PackagesSettings } from '../config/packages-settings.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { BLOB_STORE, lockBlob } from './blob-lock.js';
import type { BlobStore } from '@cairn/platform';

/** What one sweep did. */
export interface SweepResult {
  /** Blobs newly found without any file (marked). */
  marked: number;
  /** Blobs deleted (row and bytes) after staying unreferenced for the grace period. */
  deleted: number;
  /** Stored files without a row (an upload that crashed between its rename and its commit), deleted. */
  orphans: number;
  /** Temporary files of interrupted uploads, deleted. */
  temps: number;
  /** Abandoned upload sessions, deleted. */
  uploads: number;
}

/**
 * Deletes what nothing references any more, crash-safe and without ever losing a blob a concurrent upload needs.
 *
 * The rule (mark, then sweep after a grace period, each deletion under the blob's lock):
 * 1. A blob row no file references is marked (`unreferenced_since`); an upload referencing it again clears the mark.
 * 2. A blob still marked after `CLEANUP_GRACE_PERIOD` is deleted in one transaction holding its lock: the row is
 *    deleted only if still marked and unreferenced, then the file is moved out of its address before the commit.
 *    An upload takes the same lock when it moves its own freshly written copy into place and upserts the row
 *    (`PackageStore.commitBlob`), so either the upload comes first (the blob is referenced: nothing is deleted) or
 *    the deletion does (the upload then puts its copy and a new row in place). Bytes are never shared between the
 *    two: every upload writes its own copy.
 * 3. A stored file without a row older than the grace period is what a crash between an upload's rename and its
 *    commit leaves: deleted under the same lock after checking again that no row appeared.
 * 4. Temporary files and upload sessions untouched for the grace period belong to interrupted uploads.
 * A crash anywhere leaves a state the next sweep finishes: a marked row, a file in `tmp/`, or an orphan file.
 */
@Injectable()
export class BlobCleanup implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('BlobCleanup');
  private timer?: NodeJS.Timeout;
  private running?: Promise<SweepResult | null>;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(PACKAGES_SETTINGS) private readonly settings: PackagesSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), this.settings.cleanupIntervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One sweep (a sweep already running is joined); null when it failed (logged, retried next interval). */
  sweep(now = new Date()): Promise<SweepResult | null> {
    this.running ??= this.doSweep(now)
      .catch((err: Error) => {
        this.logger.warn(`storage cleanup failed: ${err.message}`);
        return null;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async doSweep(now: Date): Promise<SweepResult> {
    const cutoff = new Date(now.getTime() - this.settings.cleanupGraceMs);
    const marked = await this.prisma.$executeRaw`
      UPDATE packages.package_blob b SET unreferenced_since = ${now}
      WHERE b.unreferenced_since IS NULL
        AND NOT EXISTS (SELECT 1 FROM packages.package_file f WHERE f.blob_id = b.id)`;
    let deleted = 0;
    for (;;) {
      const due = await this.prisma.packageBlob.findMany({
        where: { unreferencedSince: { lt: cutoff } },
        select: { id: true, hashSha256: true },
        take: 500,
        orderBy: { id: 'asc' },
      });
      for (const blob of due) if (await this.deleteBlob(blob.id, blob.hashSha256, cutoff)) deleted++;
      if (due.length < 500) break;
    }
    let orphans = 0;
    for await (const sha256 of this.blobs.storedBefore(cutoff)) if (await this.deleteOrphan(sha256)) orphans++;
    const temps = await this.blobs.removeStaleTemp(cutoff);
    const { count: uploads } = await this.prisma.packageBlobUpload.deleteMany({ where: { updatedAt: { lt: cutoff } } });
    const result = { marked, deleted, orphans, temps, uploads };
    if (deleted || orphans || temps || uploads) this.logger.log(`storage cleanup: ${JSON.stringify(result)}`);
    return result;
  }

  /** Deletes a blob that stayed unreferenced since before `cutoff` (rule 2); false when it no longer qualifies. */
  private async deleteBlob(id: number, sha256: string, cutoff: Date): Promise<boolean> {
    let trash: string | null = null;
    const gone = await this.prisma.$transaction(async (tx) => {
      await lockBlob(tx, sha256);
      const n = await tx.$executeRaw`
        DELETE FROM packages.package_blob b
        WHERE b.id = ${id} AND b.unreferenced_since < ${cutoff}
          AND NOT EXISTS (SELECT 1 FROM packages.package_file f WHERE f.blob_id = b.id)`;
      if (n === 0) return false;
      trash = await this.blobs.retire(sha256);
      return true;
    });
    if (trash) await this.blobs.dropRetired(trash);
    return gone;
  }

  /** Deletes a stored file that has no row (rule 3); false when a row exists (or appeared). */
  private async deleteOrphan(sha256: string): Promise<boolean> {
    let trash: string | null = null;
    await this.prisma.$transaction(async (tx) => {
      await lockBlob(tx, sha256);
      if (await tx.packageBlob.findUnique({ where: { hashSha256: sha256 }, select: { id: true } })) return;
      trash = await this.blobs.retire(sha256);
    });
    if (trash) await this.blobs.dropRetired(trash);
    return trash !== null;
  }
}
