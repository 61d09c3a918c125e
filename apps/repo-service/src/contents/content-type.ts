/** How many leading bytes decide the content type (as Go's `http.DetectContentType`, which Gitea uses). */
export const SNIFF_BYTES = 1024;

export const TEXT_PLAIN = 'text/plain; charset=utf-8';
export const OCTET_STREAM = 'application/octet-stream';

/** Go's "binary data bytes": control characters other than TAB, LF, FF, CR and ESC. */
function isBinaryByte(b: number): boolean {
  return b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f);
}

/**
 * The `Content-Type` of a raw blob, judged from its first KiB as Gitea serves raw files: anything without binary
 * control bytes is text and served as `text/plain; charset=utf-8` (HTML included — a blob never runs script in the
 * site's origin); everything else is `application/octet-stream`.
 */
export function sniffContentType(head: Buffer): string {
  const n = Math.min(head.length, SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (isBinaryByte(head[i])) return OCTET_STREAM;
  return TEXT_PLAIN;
}

/** `Content-Disposition: inline` with the file name (ASCII fallback plus RFC 5987 for the exact name). */
export function inlineDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
