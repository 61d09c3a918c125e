import type { Readable } from 'node:stream';

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
  /** Where the backend holds the bytes until commit (a temporary file or object); opaque to callers. */
  staging: string;
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
 * Content-addressed blob storage, every blob stored once under its sha256, on a folder or an S3-compatible bucket.
 * Nothing is held in memory whole; a blob is visible under its address only once its bytes are complete, so a crash
 * mid-upload leaves at most a temporary file or object, which {@link BlobStore.removeStaleTemp} removes.
 */
export interface BlobStore {
  /**
   * Streams `content` to a temporary file or object while hashing it (md5, sha1, sha256, sha512); refuses
   * (BlobTooLargeError, nothing kept) past `maxBytes` (-1: no limit). The bytes are not yet at their address.
   */
  stage(content: Readable, options: { maxBytes: number }): Promise<StagedBlob>;
  /**
   * Moves a staged blob to its address (identical bytes may replace an existing copy). The package store calls it
   * under the blob's lock, in the transaction that references the blob (see blob-cleanup.ts).
   */
  commit(staged: StagedBlob): Promise<StoredBlob>;
  /** Deletes a staged blob's temporary copy (no-op when it was committed). */
  discard(staged: StagedBlob): Promise<void>;
  /** `stage` then `commit`: for blobs nothing references yet (tests, tools). */
  put(content: Readable, options: { maxBytes: number }): Promise<StoredBlob>;
  /** The blob's bytes (or a range of them); null when it is not stored. */
  open(sha256: string, range?: ByteRange): Promise<Readable | null>;
  /** The blob's size, or null when it is not stored. */
  size(sha256: string): Promise<number | null>;
  /** Deletes a blob (no-op when absent). */
  remove(sha256: string): Promise<void>;
  /**
   * Takes a blob off its address into the store's temporary area (null when absent) and answers a handle for
   * {@link dropRetired}: the cleanup does this under the blob's lock, so an upload committing the same bytes later
   * never finds a copy that is about to be deleted.
   */
  retire(sha256: string): Promise<string | null>;
  /** Deletes what {@link retire} set aside. */
  dropRetired(handle: string): Promise<void>;
  /** Every stored blob's sha256 last written before `olderThan`. */
  storedBefore(olderThan: Date): AsyncGenerator<string>;
  /** Deletes temporary files and objects last written before `olderThan`; returns how many. */
  removeStaleTemp(olderThan: Date): Promise<number>;
  /**
   * A local folder for uploads assembled from chunks before they become a blob (OCI chunked uploads), as Gitea's
   * `[packages] CHUNKED_UPLOAD_PATH`; on several replicas it must be shared, whatever the backend.
   */
  readonly tempDir: string;
  /** A new file path in {@link tempDir}. */
  tempPath(): Promise<string>;
}

/** A blob's address: nothing but a lower-case sha256, so no path or key is ever built from other input. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

export function checkedSha256(sha256: string): string {
  if (!SHA256_HEX.test(sha256)) throw new Error(`not a sha256 hex digest: ${JSON.stringify(sha256.slice(0, 80))}`);
  return sha256;
}
