import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PACKAGES_SETTINGS, type PackagesSettings } from '../config/packages-settings.js';
import { COMMON_SETTINGS, ClusterSchedule, deleteBlobUnderLock, type BlobStore, type CommonSettings } from '@cairn/platform';
import { BLOB_STORE } from './blob-store.token.js';
import { BlobsRepository } from './blobs.repository.js';

export interface SweepResult {
  marked: number;
  /** Blobs deleted (row and bytes) after staying unreferenced for the grace period. */
  deleted: number;
  /** Stored files without a row (an upload that crashed between its rename and its commit), deleted. */
  orphans: number;
  temps: number;
  uploads: number;
}

// Mark, then sweep after the grace period (docs/architecture.md, "Cleanup"); each deletion holds the blob's lock,
// which uploads take too, so a concurrent upload never loses its blob. One replica per cluster runs it.
@Injectable()
export class BlobCleanup implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('BlobCleanup');
  private schedule?: ClusterSchedule;
  private running?: Promise<SweepResult | null>;

  constructor(
    private readonly rows: BlobsRepository,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(PACKAGES_SETTINGS) private readonly settings: PackagesSettings,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule = new ClusterSchedule({
      databaseUrl: this.common.databaseUrl, job: 'packages.blob-cleanup', everyMs: this.settings.cleanupIntervalMs, run: () => this.sweep(),
    });
    this.schedule.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.schedule?.stop();
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
    const marked = await this.rows.markUnreferenced(now);
    let deleted = 0;
    for (;;) {
      const due = await this.rows.markedBefore(cutoff, 500);
      for (const blob of due) if (await this.deleteBlob(blob.id, blob.hashSha256, cutoff)) deleted++;
      if (due.length < 500) break;
    }
    let orphans = 0;
    for await (const sha256 of this.blobs.storedBefore(cutoff)) if (await this.deleteOrphan(sha256)) orphans++;
    const temps = await this.blobs.removeStaleTemp(cutoff);
    const uploads = await this.rows.deleteUploadsBefore(cutoff);
    const result = { marked, deleted, orphans, temps, uploads };
    if (deleted || orphans || temps || uploads) this.logger.log(`storage cleanup: ${JSON.stringify(result)}`);
    return result;
  }

  /** Deletes a blob that stayed unreferenced since before `cutoff` (rule 2); false when it no longer qualifies. */
  private async deleteBlob(id: number, sha256: string, cutoff: Date): Promise<boolean> {
    let gone = false;
    await deleteBlobUnderLock(this.blobs, sha256, (retire) => this.rows.transaction(async (tx) => {
      await this.rows.lock(tx, sha256);
      gone = await this.rows.deleteIfStillUnreferenced(tx, id, cutoff);
      if (gone) await retire();
    }));
    return gone;
  }

  /** Deletes a stored file that has no row (rule 3); false when a row exists (or appeared). */
  private async deleteOrphan(sha256: string): Promise<boolean> {
    return deleteBlobUnderLock(this.blobs, sha256, (retire) => this.rows.transaction(async (tx) => {
      await this.rows.lock(tx, sha256);
      if (!(await this.rows.exists(tx, sha256))) await retire();
    }));
  }
}
