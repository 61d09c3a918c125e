import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { REPO_SETTINGS, type RepoSettings } from '../../foundation/config/repo-settings.js';
import { serviceDataDir } from './service-data-dir.js';

/** A temporary file this old is an upload cut short by a crash (no upload takes a day). */
const STALE_TMP_MS = 24 * 3600_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The stream was longer than the limit it was written with (nothing is kept). */
export class AttachmentTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`attachment too large: the limit is ${limit} bytes`);
  }
}

export interface StagedAttachment {
  uuid: string;
  size: number;
  tmpPath: string;
}

function sizeLimit(limit: number, seen: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen.bytes += chunk.length;
      if (seen.bytes > limit) done(new AttachmentTooLarge(limit));
      else done(null, chunk);
    },
  });
}

// `<root>/<repo id>/<uuid>`: a new file streams into `tmp/<uuid>.part`, is fsynced, then renamed, so a file at its
// place is always complete. Temporary files a crash left are swept at start once a day old.
@Injectable()
export class AttachmentStore implements OnModuleInit {
  private readonly logger = new Logger('AttachmentStore');
  readonly root: string;

  constructor(@Inject(COMMON_SETTINGS) common: CommonSettings, @Inject(REPO_SETTINGS) settings: RepoSettings) {
    this.root = settings.attachmentPath ? resolve(settings.attachmentPath) : join(serviceDataDir(common.repoRoot), 'attachments');
  }

  async onModuleInit(): Promise<void> {
    await this.sweepTmp().catch((e: Error) => this.logger.warn(`temporary attachment files not swept: ${e.message}`));
  }

  /** Removes temporary files older than `maxAgeMs` (uploads a crash cut short); returns how many. */
  async sweepTmp(maxAgeMs = STALE_TMP_MS, now = Date.now()): Promise<number> {
    const dir = join(this.root, 'tmp');
    const names = await readdir(dir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const path = join(dir, name);
      const info = await stat(path).catch(() => null);
      if (info && now - info.mtimeMs > maxAgeMs) {
        await rm(path, { force: true });
        removed++;
      }
    }
    return removed;
  }

  /** The file of an attachment (ids and uuids only: no input names a path). */
  pathOf(repoId: number, uuid: string): string {
    if (!Number.isSafeInteger(repoId) || repoId < 1 || !UUID.test(uuid)) throw new Error('invalid attachment address');
    return join(this.root, String(repoId), uuid);
  }

  /** Writes `input` to a temporary file (at most `limit` bytes: {@link AttachmentTooLarge} past it, file removed). */
  async stage(input: Readable, limit: number): Promise<StagedAttachment> {
    const uuid = randomUUID();
    const dir = join(this.root, 'tmp');
    await mkdir(dir, { recursive: true });
    const tmpPath = join(dir, `${uuid}.part`);
    const seen = { bytes: 0 };
    try {
      await pipeline(input, sizeLimit(limit, seen), createWriteStream(tmpPath, { flags: 'wx' }));
      const handle = await open(tmpPath, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (err) {
      await rm(tmpPath, { force: true });
      throw err;
    }
    return { uuid, size: seen.bytes, tmpPath };
  }

  /** Moves staged bytes to their place (same filesystem: an atomic rename). */
  async commit(repoId: number, staged: StagedAttachment): Promise<void> {
    const target = this.pathOf(repoId, staged.uuid);
    await mkdir(join(this.root, String(repoId)), { recursive: true });
    await rename(staged.tmpPath, target);
  }

  async discard(staged: StagedAttachment): Promise<void> {
    await rm(staged.tmpPath, { force: true });
  }

  async open(repoId: number, uuid: string): Promise<{ stream: ReadStream; size: number } | null> {
    const path = this.pathOf(repoId, uuid);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return null;
    return { stream: createReadStream(path), size: info.size };
  }

  /** Removes attachments' files (after their rows are gone: a failure leaves only stray bytes, logged). */
  async remove(repoId: number, uuids: string[]): Promise<void> {
    for (const uuid of uuids) {
      await rm(this.pathOf(repoId, uuid), { force: true }).catch((e: Error) =>
        this.logger.error(`attachment ${uuid} of repository ${repoId} deleted but its file was not: ${e.message}`),
      );
    }
  }

  async removeRepository(repoId: number): Promise<void> {
    if (!Number.isSafeInteger(repoId) || repoId < 1) return;
    await rm(join(this.root, String(repoId)), { recursive: true, force: true }).catch((e: Error) =>
      this.logger.error(`repository ${repoId} deleted but its attachments folder was not: ${e.message}`),
    );
  }
}
