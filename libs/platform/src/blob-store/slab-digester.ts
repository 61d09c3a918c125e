import { BlobTooLargeError, type BlobDigests } from './blob-store.js';
import { ParallelDigests } from './hash-workers.js';

/**
 * An upload is copied into a ring of slabs of shared memory; each full slab is handed to the hashing threads
 * (and to the backend's `alsoWrite`, e.g. a file) at once, and is reused only once all are done with it. So an upload
 * holds at most `SLABS × SLAB_BYTES` whatever its size, and a slow disk or hash slows the client down (back-pressure).
 */
export const SLAB_BYTES = 1024 * 1024;
const SLABS = 4;

/** Counts and hashes one stream of bytes for the blob stores; refuses more than `maxBytes` (-1: no limit). */
export class SlabDigester {
  bytes = 0;
  private readonly hashes = new ParallelDigests();
  private readonly slabs = Array.from({ length: SLABS }, () => new SharedArrayBuffer(SLAB_BYTES));
  private readonly views = this.slabs.map((slab) => new Uint8Array(slab));
  private readonly inFlight: Array<Promise<void> | null> = new Array<Promise<void> | null>(SLABS).fill(null);
  private current = 0;
  private filled = 0;
  private position = 0;
  private finished = false;

  constructor(
    private readonly maxBytes: number,
    private readonly alsoWrite?: (data: Uint8Array, position: number) => Promise<void>,
  ) {}

  async absorb(chunk: Buffer): Promise<void> {
    this.bytes += chunk.length;
    if (this.maxBytes >= 0 && this.bytes > this.maxBytes) throw new BlobTooLargeError(this.maxBytes);
    for (let offset = 0; offset < chunk.length; ) {
      if (this.filled === 0) await this.inFlight[this.current]; // the slab is still being written or hashed
      const n = Math.min(chunk.length - offset, SLAB_BYTES - this.filled);
      this.views[this.current]!.set(chunk.subarray(offset, offset + n), this.filled);
      this.filled += n;
      offset += n;
      if (this.filled === SLAB_BYTES) this.send();
    }
  }

  /** Sends the last slab, waits for every slab's work, and answers the digests. */
  async finish(): Promise<BlobDigests> {
    this.send();
    await Promise.all(this.inFlight);
    const digests = await this.hashes.digests();
    this.finished = true;
    return digests;
  }

  /** Waits for the work under way (no write may land after the caller cleans up) and forgets an unfinished hash. */
  async abandon(): Promise<void> {
    if (!this.finished) this.hashes.drop();
    await Promise.allSettled(this.inFlight);
  }

  private send(): void {
    if (this.filled === 0) return;
    const i = this.current;
    const data = this.views[i]!.subarray(0, this.filled);
    const work = Promise.all([this.alsoWrite?.(data, this.position), this.hashes.update(this.slabs[i]!, this.filled)]).then(() => undefined);
    work.catch(() => undefined); // awaited before the slab's reuse and at the end; never an unhandled rejection
    this.inFlight[i] = work;
    this.position += this.filled;
    this.filled = 0;
    this.current = (i + 1) % SLABS;
  }
}
