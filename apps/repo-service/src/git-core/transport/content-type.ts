/** How many leading bytes are held back before answering, so that a git failure early on is still a clean 500. */
export const SNIFF_BYTES = 1024;

/** Raw bytes leave repo-service untyped: the gateway decides how user content is shown (its `http/user-content.ts`). */
export const OCTET_STREAM = 'application/octet-stream';

export function inlineDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
