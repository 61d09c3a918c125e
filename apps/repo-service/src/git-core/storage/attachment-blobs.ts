import { createReadStream } from 'node:fs';
import { readdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import {
  COMMON_SETTINGS, ClusterSchedule, deleteBlobUnderLock, type BlobStore, type ByteRange, type CommonSettings,
  type StagedBlob,
} from '@cairn/platform';
import type { Tx } from '../../foundation/prisma/prisma.service.js';
import { AttachmentBlobsRepository } from './attachment-blobs.repository.js';

/** Injection token of the attachments' blob store (`[storage.attachments]`, @cairn/platform's `openBlobStore`). */
export const ATTACHMENT_BLOB_STORE = Symbol('ATTACHMENT_BLOB_STORE');
/** Injection token of the attachments' local folder (@cairn/platform's `attachmentsLocalRoot`). */
export const ATTACHMENT_ROOT = Symbol('ATTACHMENT_ROOT');

/** How often the cluster's sweep runs. */
const SWEEP_EVERY_MS = 3600_000;
/** A temporary file or unnamed blob this old is left over by a crash (no upload takes a day). */
const GRACE_MS = 24 * 3600_000;

/** An attachment's name (Gitea's lower-case uuid), and a database id as written in paths and headers. */
export const ATTACHMENT_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const DECIMAL_ID = /^[1-9]\d{0,9}$/;

/** What one sweep removed. */
export interface AttachmentSweep {
  /** Stored blobs no attachment names. */
  orphans: number;
  /** Temporary files and objects of interrupted uploads. */
  temps: number;
}

/**
 * Release attachment bytes in the attachments' blob store (local folder or S3), named by the rows' sha256. Written
 * before the row that names them (committed under the blob's lock in the row's transaction), deleted after the last
 * row naming them is gone (under the same lock); what a crash leaves between the two, the orphan sweep removes, run by
 * one replica per cluster ({@link ClusterSchedule}). Files of the old layout (`<root>/<repo id>/<uuid>`) move into the
 * store at start.
 */
@Injectable()
export class AttachmentBlobs implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AttachmentBlobs');
  private schedule?: ClusterSchedule;

  constructor(
    private readonly rows: AttachmentBlobsRepository,
    @Inject(ATTACHMENT_BLOB_STORE) private readonly store: BlobStore,
    @Inject(ATTACHMENT_ROOT) private readonly root: string,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const moved = await this.moveLegacyFiles();
    if (moved) this.logger.log(`moved ${moved} attachment file(s) of the old layout into the blob store`);
    this.schedule = new ClusterSchedule({
      databaseUrl: this.common.databaseUrl, job: 'repo.attachment-sweep', everyMs: SWEEP_EVERY_MS, run: () => this.sweep(),
    });
    this.schedule.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.schedule?.stop();
  }

  /** Streams `body` into the store (BlobTooLargeError past `maxBytes`, nothing kept); not yet at its address. */
  stage(body: Readable, maxBytes: number): Promise<StagedBlob> {
    return this.store.stage(body, { maxBytes });
  }

  /**
   * Puts a staged blob at its address and runs `name` (which inserts the row naming it) in one transaction under the
   * blob's lock. On failure nothing names the blob: it is dropped unless another row names the same bytes.
   */
  async commitNamed<T>(staged: StagedBlob, name: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await this.rows.transaction(async (tx) => {
        await this.rows.lock(tx, staged.sha256);
        await this.store.commit(staged);
        return name(tx);
      });
    } catch (err) {
      await this.store.discard(staged).catch(() => undefined);
      await this.release([staged.sha256]);
      throw err;
    }
  }

  /**
   * Where a repository's attachment is: its blob, or null when there is no such attachment or its bytes are missing.
   */
  async find(repoId: number, uuid: string): Promise<{ sha256: string; size: number; name: string } | null> {
    const ref = await this.rows.blobOf(repoId, uuid);
    return ref?.sha256 ? { sha256: ref.sha256, size: ref.size, name: ref.name } : null;
  }

  open(sha256: string, range?: ByteRange): Promise<Readable | null> {
    return this.store.open(sha256, range);
  }

  /** A presigned URL with `[storage] SERVE_DIRECT` on S3, else null. */
  directUrl(sha256: string, filename: string): Promise<string | null> {
    return this.store.directUrl(sha256, { filename, contentType: 'application/octet-stream' });
  }

  /** The blobs a repository's attachments name: read before its deletion, {@link release}d after. */
  blobsOfRepository(repoId: number): Promise<string[]> {
    return this.rows.blobsOfRepository(repoId);
  }

  /**
   * Deletes the blobs no row names any more (called once their rows are gone). A failure is logged: the orphan sweep
   * finishes it.
   */
  async release(sha256s: string[]): Promise<void> {
    for (const sha256 of new Set(sha256s)) {
      await this.removeIfUnnamed(sha256).catch((e: Error) =>
        this.logger.error(`attachment blob ${sha256} no longer named but not deleted (the sweep retries): ${e.message}`),
      );
    }
  }

  /** One sweep: stored blobs no row names and temporary files, both older than the grace period. */
  async sweep(now = new Date()): Promise<AttachmentSweep> {
    const cutoff = new Date(now.getTime() - GRACE_MS);
    let orphans = 0;
    for await (const sha256 of this.store.storedBefore(cutoff)) if (await this.removeIfUnnamed(sha256)) orphans++;
    const temps = await this.store.removeStaleTemp(cutoff);
    if (orphans || temps) this.logger.log(`attachment sweep: ${orphans} orphan blob(s), ${temps} temporary file(s) removed`);
    return { orphans, temps };
  }

  /** Under the blob's lock, so an upload committing the same bytes meanwhile never loses them. */
  private async removeIfUnnamed(sha256: string): Promise<boolean> {
    return deleteBlobUnderLock(this.store, sha256, (retire) => this.rows.transaction(async (tx) => {
      await this.rows.lock(tx, sha256);
      if (!(await this.rows.isNamed(tx, sha256))) await retire();
    }));
  }

  /**
   * Moves the files of the old layout (`<root>/<repo id>/<uuid>`, before attachments lived in the blob store) into
   * the store and names their blobs; files without a waiting row are strays of failed deletions and go. Safe to run
   * on several replicas at once. Returns how many moved.
   */
  async moveLegacyFiles(): Promise<number> {
    const root = this.root;
    let moved = 0;
    for (const dir of await readdir(root).catch(() => [] as string[])) {
      if (!DECIMAL_ID.test(dir)) continue;
      const repoId = Number(dir);
      for (const uuid of await readdir(join(root, dir)).catch(() => [] as string[])) {
        const file = join(root, dir, uuid);
        try {
          if (ATTACHMENT_UUID.test(uuid) && (await this.rows.awaitsBlob(repoId, uuid))) {
            const staged = await this.store.stage(createReadStream(file), { maxBytes: -1 });
            if (await this.commitNamed(staged, (tx) => this.rows.nameBlob(tx, repoId, uuid, staged.sha256))) moved++;
          }
          await rm(file, { force: true });
        } catch (err) {
          // Kept for the next start (another replica may have moved it meanwhile: then it is gone).
          this.logger.warn(`attachment file ${dir}/${uuid} of the old layout not moved: ${(err as Error).message}`);
        }
      }
      await rmdir(join(root, dir)).catch(() => undefined);
    }
    return moved;
  }
}
