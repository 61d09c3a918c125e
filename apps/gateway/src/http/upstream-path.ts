/**
 * The path of a request streamed to an internal endpoint: the endpoint's own base path, then the public path byte for
 * byte. Never resolved as a URL: that would turn `..` and `%2e%2e` segments into a path outside the prefix the
 * gateway routed (e.g. another package's, or an internal route reached with the internal token).
 */
export function upstreamPath(base: URL, publicUrl: string): string {
  return `${base.pathname.replace(/\/$/, '')}${publicUrl}`;
}
