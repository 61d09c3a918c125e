import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ParallelDigests } from './hash-workers.js';

/** Injection token of the {@link FsBlobStore}. */
export const BLOB_STORE = Symbol('BLOB_STORE');

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
/** Read chunk size of blob files: fewer, larger chunks through the three processes of a transfer. */
const IO_CHUNK_BYTES = 1024 * 1024;
/**
 * An upload is copied into a ring of slabs of shared memory; each full slab is written to the file and handed to the
 * four hashing threads at once, and is reused only once all five are done with it. So an upload holds at most
 * `SLABS × SLAB_BYTES` whatever its size, and a slow disk or hash slows the client down (back-pressure).
 */
const SLAB_BYTES = 1024 * 1024;
const SLABS = 4;

/**
 * Writes what flows in to a new file (`flags: 'wx'`), hashing it on the worker threads of {@link ParallelDigests} and
 * counting it; fails once more than `maxBytes` went by. On finish the file is fsynced and {@link digests} are set.
 */
class HashingFileSink extends Writable {
  size = 0;
  digests: BlobDigests | null = null;
  private handle: FileHandle | null = null;
  private readonly hashes = new ParallelDigests();
  private readonly slabs = Array.from({ length: SLABS }, () => new SharedArrayBuffer(SLAB_BYTES));
  private readonly views = this.slabs.map((slab) => new Uint8Array(slab));
  private readonly inFlight: Array<Promise<void> | null> = new Array<Promise<void> | null>(SLABS).fill(null);
  private current = 0;
  private filled = 0;
  private position = 0;

  constructor(
    private readonly file: string,
    private readonly maxBytes: number,
  ) {
    super({ highWaterMark: SLAB_BYTES });
  }

  override _construct(done: (err?: Error | null) => void): void {
    open(this.file, 'wx').then((handle) => {
      this.handle = handle;
      done();
    }, done);
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.take(chunk).then(() => done(), done);
  }

  override _final(done: (err?: Error | null) => void): void {
    this.flush();
    Promise.all(this.inFlight)
      .then(() => this.handle!.sync())
      .then(() => this.hashes.digests())
      .then((digests) => {
        this.digests = digests;
        done();
      }, done);
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    if (!this.digests) this.hashes.drop();
    // No write may land after the caller removed the file: wait for those under way before closing it.
    Promise.allSettled(this.inFlight)
      .then(() => this.handle?.close())
      .then(() => done(err), (closeErr: Error) => done(err ?? closeErr));
  }

  private async take(chunk: Buffer): Promise<void> {
    this.size += chunk.length;
    if (this.maxBytes >= 0 && this.size > this.maxBytes) throw new BlobTooLargeError(this.maxBytes);
    for (let offset = 0; offset < chunk.length; ) {
      if (this.filled === 0) await this.inFlight[this.current]; // the slab is still being written or hashed
      const n = Math.min(chunk.length - offset, SLAB_BYTES - this.filled);
      this.views[this.current]!.set(chunk.subarray(offset, offset + n), this.filled);
      this.filled += n;
      offset += n;
      if (this.filled === SLAB_BYTES) this.flush();
    }
  }

  /** Sends the current slab to the file and to the hashing threads at once, and moves on to the next slab. */
  private flush(): void {
    if (this.filled === 0) return;
    const i = this.current;
    const work = Promise.all([
      writeAt(this.handle!, this.views[i]!.subarray(0, this.filled), this.position),
      this.hashes.update(this.slabs[i]!, this.filled),
    ]).then(() => undefined);
    work.catch(() => undefined); // awaited before the slab's reuse and at the end; never an unhandled rejection
    this.inFlight[i] = work;
    this.position += this.filled;
    this.filled = 0;
    this.current = (i + 1) % SLABS;
  }
}

/** Writes all of `data` at `position` (positional writes: slabs may be written concurrently). */
async function writeAt(handle: FileHandle, data: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < data.length; ) {
    const { bytesWritten } = await handle.write(data, done, data.length - done, position + done);
    done += bytesWritten;
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
    const sink = new HashingFileSink(tempPath, options.maxBytes);
    try {
      await pipeline(content, sink);
    } catch (err) {
      if (!sink.closed) await once(sink, 'close');
      await rm(tempPath, { force: true });
      throw err;
    }
    if (!sink.closed) await once(sink, 'close');
    return { ...sink.digests!, size: sink.size, tempPath };
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
      return handle.createReadStream({ highWaterMark: IO_CHUNK_BYTES, ...(range ? { start: range.start, end: range.end } : {}) });
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
