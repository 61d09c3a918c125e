import type { BlobStore } from './blob-store.js';

export interface BlobMigration {
  copied: number;
  /** Already in the target with the same size (a rerun, or a blob written by both). */
  skipped: number;
  bytes: number;
}

/** Later than any blob: every stored blob qualifies. */
const ALL = new Date(8.64e15);

/**
 * Copies every blob of `from` into `to`, each streamed and re-hashed: a blob whose bytes do not have its sha256 stops
 * the migration with its name. Blobs reach their address only complete, so one of the same size is already there and
 * is skipped: the migration is safe to rerun after an interruption.
 */
export async function migrateBlobs(from: BlobStore, to: BlobStore, log: (line: string) => void = () => undefined): Promise<BlobMigration> {
  const done: BlobMigration = { copied: 0, skipped: 0, bytes: 0 };
  for await (const sha256 of from.storedBefore(ALL)) {
    const size = await from.size(sha256);
    if (size === null) continue; // deleted meanwhile
    if ((await to.size(sha256)) === size) {
      done.skipped++;
      continue;
    }
    const content = await from.open(sha256);
    if (!content) continue;
    const staged = await to.stage(content, { maxBytes: -1 });
    if (staged.sha256 !== sha256) {
      await to.discard(staged);
      throw new Error(`blob ${sha256} is corrupt in the source: its bytes have sha256 ${staged.sha256}`);
    }
    await to.commit(staged);
    done.copied++;
    done.bytes += size;
    log(`copied ${sha256} (${size} bytes)`);
  }
  return done;
}
