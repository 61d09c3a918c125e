import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The four digests Gitea keeps of every blob (lower-case hex). */
export interface BlobDigests {
  md5: string;
  sha1: string;
  sha256: string;
  sha512: string;
}

export interface StoredBlob extends BlobDigests {
  size: number;
}

/** Content written and hashed into a temporary file, not yet at its address (see {@link BlobStore.commit}). */
export interface StagedBlob extends StoredBlob {
  tempPath: string;
}

/** The upload was larger than its limit; nothing was stored. */
export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`content larger than ${maxBytes} bytes`);
  }
}

/** A byte range of a blob (inclusive end, as HTTP's `Range`). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Content-addressed blob storage: every blob is stored once under its sha256. `put` never holds the content in
 * memory; a blob is visible under its address only once its bytes are complete and durable (temp file, fsync,
 * rename), so a crash mid-upload leaves at most a temporary file that {@link BlobStore.removeStaleTemp} removes.
 */
export interface BlobStore {
  /**
   * Streams `content` into a temporary file, hashing it (md5, sha1, sha256, sha512) and fsyncing it; refuses
   * (BlobTooLargeError, nothing kept) past `maxBytes` (-1: no limit). The bytes are not yet at their address.
   */
  stage(content: Readable, options: { maxBytes: number }): Promise<StagedBlob>;
  /**
   * Moves a staged blob to its address (atomic rename; identical bytes may replace an existing copy). The package
   * store calls it under the blob's lock, in the transaction that references the blob (see blob-cleanup.ts).
   */
  commit(staged: StagedBlob): Promise<StoredBlob>;
  /** Deletes a staged blob's temporary file (no-op when it was committed). */
  discard(staged: StagedBlob): Promise<void>;
  /** `stage` then `commit`: for blobs nothing references yet (tests, tools). */
  put(content: Readable, options: { maxBytes: number }): Promise<StoredBlob>;
  /** The blob's bytes (or a range of them); null when it is not stored. */
  open(sha256: string, range?: ByteRange): Promise<Readable | null>;
  /** The blob's size, or null when it is not stored. */
  size(sha256: string): Promise<number | null>;
  /** Deletes a blob (no-op when absent). */
  remove(sha256: string): Promise<void>;
  /** Deletes temporary files last written before `olderThan`; returns how many. */
  removeStaleTemp(olderThan: Date): Promise<number>;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** Hashes and counts what flows through, failing once more than `maxBytes` went by. */
class HashingCounter extends Transform {
  private readonly hashes = {
    md5: createHash('md5'), sha1: createHash('sha1'), sha256: createHash('sha256'), sha512: createHash('sha512'),
  };
  size = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.maxBytes >= 0 && this.size > this.maxBytes) {
      done(new BlobTooLargeError(this.maxBytes));
      return;
    }
    for (const h of Object.values(this.hashes)) h.update(chunk);
    done(null, chunk);
  }

  digests(): BlobDigests {
    const { md5, sha1, sha256, sha512 } = this.hashes;
    return { md5: md5.digest('hex'), sha1: sha1.digest('hex'), sha256: sha256.digest('hex'), sha512: sha512.digest('hex') };
  }
}

/** {@link BlobStore} on a filesystem folder (`[packages] STORAGE_PATH`): `blobs/<aa>/<bb>/<sha256>` and `tmp/`. */
export class FsBlobStore implements BlobStore {
  private readonly blobsDir: string;
  readonly tempDir: string;

  constructor(root: string) {
    this.blobsDir = path.join(root, 'blobs');
    this.tempDir = path.join(root, 'tmp');
    mkdirSync(this.tempDir, { recursive: true });
  }

  /** The path of a blob; throws on anything that is not a sha256 (no path can be built from other input). */
  blobPath(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`not a sha256 hex digest: ${JSON.stringify(sha256.slice(0, 80))}`);
    return path.join(this.blobsDir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  /** A new temporary file path under `tmp/` (for uploads that are assembled before they become a blob). */
  async tempPath(): Promise<string> {
    await mkdir(this.tempDir, { recursive: true });
    return path.join(this.tempDir, `${randomUUID()}.part`);
  }

  async stage(content: Readable, options: { maxBytes: number }): Promise<StagedBlob> {
    // No await before the pipeline: it must listen to `content` at once, or an early client abort goes unhandled.
    const tempPath = path.join(this.tempDir, `${randomUUID()}.part`);
    const counter = new HashingCounter(options.maxBytes);
    try {
      await pipeline(content, counter, createWriteStream(tempPath, { flags: 'wx' }));
      await fsync(tempPath);
    } catch (err) {
      await rm(tempPath, { force: true });
      throw err;
    }
    return { ...counter.digests(), size: counter.size, tempPath };
  }

  async commit(staged: StagedBlob): Promise<StoredBlob> {
    const { tempPath, ...blob } = staged;
    const target = this.blobPath(blob.sha256);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(tempPath, target);
    await fsync(path.dirname(target));
    return blob;
  }

  async discard(staged: StagedBlob): Promise<void> {
    await rm(staged.tempPath, { force: true });
  }

  async put(content: Readable, options: { maxBytes: number }): Promise<StoredBlob> {
    return this.commit(await this.stage(content, options));
  }

  /**
   * Moves a blob out of its address into `tmp/` (atomic; null when absent), for the cleanup: done under the blob's
   * lock before the row's deletion commits, so an upload committing the same blob afterwards finds no stale copy to lose.
   */
  async retire(sha256: string): Promise<string | null> {
    const trash = await this.tempPath();
    try {
      await rename(this.blobPath(sha256), trash);
      return trash;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async open(sha256: string, range?: ByteRange): Promise<Readable | null> {
    const file = this.blobPath(sha256);
    try {
      // Opened first: a blob removed after this point still streams whole (the open file keeps its bytes).
      const handle = await open(file, 'r');
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async size(sha256: string): Promise<number | null> {
    try {
      return (await stat(this.blobPath(sha256))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(sha256: string): Promise<void> {
    try {
      await unlink(this.blobPath(sha256));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  /** Every stored blob's sha256 whose file was last written before `olderThan` (walks `blobs/`). */
  async *storedBefore(olderThan: Date): AsyncGenerator<string> {
    for (const a of await listDir(this.blobsDir)) {
      for (const b of await listDir(path.join(this.blobsDir, a))) {
        for (const name of await listDir(path.join(this.blobsDir, a, b))) {
          if (!SHA256.test(name)) continue;
          try {
            if ((await stat(path.join(this.blobsDir, a, b, name))).mtime < olderThan) yield name;
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          }
        }
      }
    }
  }

  async removeStaleTemp(olderThan: Date): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.tempDir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.tempDir, name);
      try {
        if ((await stat(file)).mtime < olderThan) {
          await rm(file, { force: true });
          removed++;
        }
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    return removed;
  }
}

/** A folder's entries; none when it does not exist. */
async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Flushes a file's (or a folder's) data to disk. */
async function fsync(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
