import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SHA256_HEX, checkedSha256, type BlobDigests, type BlobStore, type ByteRange, type StagedBlob, type StoredBlob } from './blob-store.js';
import { SLAB_BYTES, SlabDigester } from './slab-digester.js';

/** Fewer, larger chunks through the three processes of a transfer. */
const IO_CHUNK_BYTES = 1024 * 1024;
/** Fails once more than `maxBytes` went by; the file is fsynced before {@link digests} are set. */
class HashingFileSink extends Writable {
  digests: BlobDigests | null = null;
  private handle: FileHandle | null = null;
  private readonly digester: SlabDigester;

  constructor(
    private readonly file: string,
    maxBytes: number,
  ) {
    super({ highWaterMark: SLAB_BYTES });
    this.digester = new SlabDigester(maxBytes, (data, position) => writeAt(this.handle!, data, position));
  }

  get size(): number {
    return this.digester.bytes;
  }

  override _construct(done: (err?: Error | null) => void): void {
    open(this.file, 'wx').then((handle) => {
      this.handle = handle;
      done();
    }, done);
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.digester.absorb(chunk).then(() => done(), done);
  }

  override _final(done: (err?: Error | null) => void): void {
    this.digester
      .finish()
      .then(async (digests) => {
        await this.handle!.sync();
        this.digests = digests;
      })
      .then(() => done(), done);
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    // No write may land after the caller removed the file: wait for those under way before closing it.
    this.digester
      .abandon()
      .then(() => this.handle?.close())
      .then(() => done(err), (closeErr: Error) => done(err ?? closeErr));
  }
}

/** Positional writes: slabs may be written concurrently. */
async function writeAt(handle: FileHandle, data: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < data.length; ) {
    const { bytesWritten } = await handle.write(data, done, data.length - done, position + done);
    done += bytesWritten;
  }
}

/** `blobs/<aa>/<bb>/<sha256>` and `tmp/`. */
export class FsBlobStore implements BlobStore {
  private readonly blobsDir: string;
  readonly tempDir: string;

  constructor(root: string) {
    this.blobsDir = path.join(root, 'blobs');
    this.tempDir = path.join(root, 'tmp');
    mkdirSync(this.tempDir, { recursive: true });
  }

  /** Throws on anything that is not a sha256. */
  blobPath(sha256: string): string {
    checkedSha256(sha256);
    return path.join(this.blobsDir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

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
    return { ...sink.digests!, size: sink.size, staging: tempPath };
  }

  async commit(staged: StagedBlob): Promise<StoredBlob> {
    const { staging, ...blob } = staged;
    const target = this.blobPath(blob.sha256);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(staging, target);
    await fsync(path.dirname(target));
    return blob;
  }

  async discard(staged: StagedBlob): Promise<void> {
    await rm(staged.staging, { force: true });
  }

  async put(content: Readable, options: { maxBytes: number }): Promise<StoredBlob> {
    return this.commit(await this.stage(content, options));
  }

  /** Done under the blob's lock before the row's deletion commits, so an upload committing the same blob afterwards loses nothing. */
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

  async directUrl(): Promise<string | null> {
    return null;
  }

  async dropRetired(handle: string): Promise<void> {
    await rm(handle, { force: true });
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

  async *storedBefore(olderThan: Date): AsyncGenerator<string> {
    for (const a of await listDir(this.blobsDir)) {
      for (const b of await listDir(path.join(this.blobsDir, a))) {
        for (const name of await listDir(path.join(this.blobsDir, a, b))) {
          if (!SHA256_HEX.test(name)) continue;
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

async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

async function fsync(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
