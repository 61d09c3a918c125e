import type { BlobStore } from './blob-store.js';

export interface BlobMigration {
  copied: number;
  /** A rerun, or a blob written by both. */
  skipped: number;
  bytes: number;
}

const ALL = new Date(8.64e15);

/** Re-hashed as copied; blobs reach their address only complete, so one of the same size is skipped and reruns are safe. */
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
