const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** Masks one credential header value, keeping the scheme (`Bearer ********`) so the record stays useful. */
export function maskCredential(value: string): string {
  const m = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)\s+\S/.exec(value);
  return m ? `${m[1]} ********` : '********';
}

/** A copy of the headers safe to store and show: credentials masked. */
export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    out[k] = SECRET_HEADERS.has(k.toLowerCase()) ? maskCredential(v) : v;
  }
  return out;
}
