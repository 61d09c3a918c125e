import type { OutgoingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';

// Gitea's `ServeSetHeaders`: server-chosen type, `nosniff` and a sandbox CSP, so no stored content runs as Cairn.

/** Nothing loads, no script runs, opaque origin. */
export const USER_CONTENT_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export const OCTET_STREAM = 'application/octet-stream';
export const TEXT_PLAIN = 'text/plain; charset=utf-8';

/** Go's `http.DetectContentType` (Gitea's) reads 512; text checks a KiB. */
export const SNIFF_BYTES = 1024;

/**
 * `raw`: text as `text/plain`, safe images as themselves, else bytes; `download`: a declared type kept only when inert.
 */
export type UserContentKind = 'raw' | 'download';

/** No SVG: it is a document that can run script. */
const SAFE_IMAGES: ReadonlyArray<{ type: string; matches: (h: Buffer) => boolean }> = [
  { type: 'image/png', matches: (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', matches: (h) => h.length >= 3 && h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff },
  { type: 'image/gif', matches: (h) => ['GIF87a', 'GIF89a'].includes(h.subarray(0, 6).toString('latin1')) },
  { type: 'image/webp', matches: (h) => h.subarray(0, 4).toString('latin1') === 'RIFF' && h.subarray(8, 12).toString('latin1') === 'WEBP' },
  { type: 'image/bmp', matches: (h) => h.subarray(0, 2).toString('latin1') === 'BM' },
  { type: 'image/x-icon', matches: (h) => h.subarray(0, 4).equals(Buffer.from([0, 0, 1, 0])) },
];

/** The file view shows these as `<img>`; raw serves them as images. */
const IMAGE_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', bmp: 'image/bmp',
  ico: 'image/x-icon', svg: 'image/svg+xml',
};

export function imageTypeForName(name: string): string | null {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? null : (IMAGE_TYPES_BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? null);
}

export const SVG_TYPE = 'image/svg+xml';
export const PDF_TYPE = 'application/pdf';

export function sniffSafeImage(head: Buffer): string | null {
  return SAFE_IMAGES.find((i) => i.matches(head))?.type ?? null;
}

/** Go's "binary data bytes". */
function isBinaryByte(b: number): boolean {
  return b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f);
}

export function looksLikeText(head: Buffer): boolean {
  const n = Math.min(head.length, SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (isBinaryByte(head[i])) return false;
  return true;
}

/** Kept on downloads (OCI clients need them). */
export function isInertType(declared: string | undefined): boolean {
  const type = declared?.split(';')[0].trim().toLowerCase() ?? '';
  return type === OCTET_STREAM || type === 'application/json' || type === 'text/plain' || /^application\/[\w.+-]+\+json$/.test(type);
}

/** `.svg` as SVG and `%PDF-` `.pdf` as PDF (as Gitea), both sandboxed; never `text/html`. */
export function userContentType(kind: UserContentKind, head: Buffer | null, declared?: string, name?: string): string {
  if (kind === 'download' && isInertType(declared)) return declared as string;
  const image = head ? sniffSafeImage(head) : null;
  if (image) return image;
  const byName = kind === 'raw' && name ? imageTypeForName(name) : null;
  if (kind === 'raw' && head && name?.toLowerCase().endsWith('.pdf') && head.subarray(0, 5).toString('latin1') === '%PDF-') return PDF_TYPE;
  if (kind === 'raw' && head && looksLikeText(head)) return byName === SVG_TYPE ? SVG_TYPE : TEXT_PLAIN;
  return OCTET_STREAM;
}

export function userContentHeaders(kind: UserContentKind, head: Buffer | null, declared?: string, name?: string): Record<string, string> {
  return {
    'content-type': userContentType(kind, head, declared, name),
    'x-content-type-options': 'nosniff',
    'content-security-policy': USER_CONTENT_CSP,
  };
}

export function secureUserContentHeaders(
  headers: OutgoingHttpHeaders,
  kind: UserContentKind,
  head: Buffer | null,
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  let declared: string | undefined;
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'content-type') declared = Array.isArray(value) ? value[0] : value === undefined ? undefined : String(value);
    else if (lower !== 'x-content-type-options' && lower !== 'content-security-policy') out[name] = value;
  }
  return { ...out, ...userContentHeaders(kind, head, declared) };
}

/** Returns a stream of the whole body, those bytes first; destroying it destroys the source. */
export async function peekHead(source: Readable, bytes = SNIFF_BYTES): Promise<{ head: Buffer; body: Readable }> {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const read: Buffer[] = [];
  let total = 0;
  let ended = false;
  while (total < bytes) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    read.push(next.value);
    total += next.value.length;
  }
  const head = Buffer.concat(read);
  async function* whole(): AsyncGenerator<Buffer> {
    try {
      if (head.length) yield head;
      while (!ended) {
        const next = await chunks.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await chunks.return?.();
    }
  }
  return { head: head.subarray(0, bytes), body: Readable.from(whole(), { objectMode: false }) };
}
