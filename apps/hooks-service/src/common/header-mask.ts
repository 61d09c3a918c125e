const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** Keeps the scheme (`Bearer ********`) so the record stays useful; Gitea shows `authorization_header` in clear. */
export function maskCredential(value: string): string {
  const m = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)\s+\S/.exec(value);
  return m ? `${m[1]} ********` : '********';
}

export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    out[k] = SECRET_HEADERS.has(k.toLowerCase()) ? maskCredential(v) : v;
  }
  return out;
}

/** `https://user:pass@host/p` → `https://user:********@host/p`; a user name alone (often a token) is masked. */
export function maskUrlCredentials(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.username === '' && parsed.password === '') return url;
  if (parsed.password !== '') parsed.password = '********';
  else parsed.username = '********';
  return parsed.toString();
}

/** True when a client sent back the masked form of a stored value (e.g. PATCH after GET): keep the stored value. */
export function isMaskOf(sent: string, stored: string, mask: (v: string) => string): boolean {
  return sent !== stored && stored !== '' && sent === mask(stored);
}
