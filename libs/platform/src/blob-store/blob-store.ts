import type { Readable } from 'node:stream';

/** Gitea keeps all four (lower-case hex). */
export interface BlobDigests {
  md5: string;
  sha1: string;
  sha256: string;
  sha512: string;
}

export interface StoredBlob extends BlobDigests {
  size: number;
}

export interface StagedBlob extends StoredBlob {
  staging: string;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`content larger than ${maxBytes} bytes`);
  }
}

/** Inclusive end, as HTTP's `Range`. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Content-addressed by sha256; a blob appears at its address only when complete, so a crash leaves at most a temp file. */
export interface BlobStore {
  /** -1: no limit. */
  stage(content: Readable, options: { maxBytes: number }): Promise<StagedBlob>;
  /** Called under the blob's lock, in the transaction that references it (see blob-cleanup.ts). */
  commit(staged: StagedBlob): Promise<StoredBlob>;
  discard(staged: StagedBlob): Promise<void>;
  put(content: Readable, options: { maxBytes: number }): Promise<StoredBlob>;
  open(sha256: string, range?: ByteRange): Promise<Readable | null>;
  size(sha256: string): Promise<number | null>;
  remove(sha256: string): Promise<void>;
  /** `[storage] SERVE_DIRECT`, S3 only; null when bytes go only through Cairn. */
  directUrl(sha256: string, presentAs: { filename: string; contentType: string }): Promise<string | null>;
  /** Done under the blob's lock, so a later upload of the same bytes never finds a copy about to be deleted. */
  retire(sha256: string): Promise<string | null>;
  dropRetired(handle: string): Promise<void>;
  storedBefore(olderThan: Date): AsyncGenerator<string>;
  removeStaleTemp(olderThan: Date): Promise<number>;
  /** As Gitea's `[packages] CHUNKED_UPLOAD_PATH`; must be shared across replicas, whatever the backend. */
  readonly tempDir: string;
  tempPath(): Promise<string>;
}

/**
 * The single range of a `Range: bytes=…` header within `size` bytes: null (whole file) or 'unsatisfiable'. Every
 * service serving blobs answers ranges by it.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (!m[1] && !m[2])) return null; // absent, multi-range or foreign units: the whole file, as allowed
  let start: number;
  let end: number;
  if (!m[1]) {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  }
  if (start > end || start >= size) return 'unsatisfiable';
  return { start, end };
}

/** So no path or key is ever built from other input. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

export function checkedSha256(sha256: string): string {
  if (!SHA256_HEX.test(sha256)) throw new Error(`not a sha256 hex digest: ${JSON.stringify(sha256.slice(0, 80))}`);
  return sha256;
}

/** RFC 6266, with an ASCII fallback plus the UTF-8 form. */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Deletes a blob the way every owner must: `locked` runs the caller's transaction holding the blob's lock and calls
 * `retire` if no row names it; the retired copy is dropped only after that transaction committed. True when deleted.
 */
export async function deleteBlobUnderLock(
  store: BlobStore,
  sha256: string,
  locked: (retire: () => Promise<void>) => Promise<unknown>,
): Promise<boolean> {
  let trash: string | null = null;
  await locked(async () => {
    trash = await store.retire(sha256);
  });
  if (trash) await store.dropRetired(trash);
  return trash !== null;
}
