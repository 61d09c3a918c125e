// Chunk ranges: the request's `Content-Range: <start>-<end>` (inclusive, no unit, as the spec writes it).
import { OciError } from './oci-errors.js';

const CONTENT_RANGE = /^(?:bytes[ =])?(\d{1,15})-(\d{1,15})$/;

export interface ChunkRange {
  start: number;
  end: number;
}

export function parseContentRange(header: string | undefined): ChunkRange | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const m = CONTENT_RANGE.exec(header.trim());
  if (!m) throw new OciError('BLOB_UPLOAD_INVALID', `Content-Range "${header.slice(0, 64)}" is not <start>-<end>`);
  const start = Number(m[1]);
  const end = Number(m[2]);
  if (end < start) throw new OciError('RANGE_INVALID', `Content-Range ${start}-${end} ends before it starts`);
  return { start, end };
}

/** A chunk must continue where the received bytes end (416 otherwise, so the client can resume). */
export function checkChunk(range: ChunkRange | undefined, received: number, contentLength: number | undefined): void {
  if (!range) {
    if (received !== 0) {
      throw new OciError('BLOB_UPLOAD_INVALID', 'a chunk without Content-Range is only accepted as the first chunk');
    }
    return;
  }
  if (range.start !== received) {
    throw new OciError('RANGE_INVALID', `chunk starts at ${range.start} but ${received} bytes were received`);
  }
  if (contentLength !== undefined && range.end - range.start + 1 !== contentLength) {
    throw new OciError('RANGE_INVALID', `Content-Range ${range.start}-${range.end} does not match Content-Length ${contentLength}`);
  }
}

export function uploadRangeHeader(received: number): string {
  return `0-${Math.max(received - 1, 0)}`;
}
