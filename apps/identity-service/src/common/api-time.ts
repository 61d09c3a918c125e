/** RFC 3339 with second precision and `Z`, as Gitea writes times. */
export function toApiTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Gitea's "never" for `last_login` (the Unix epoch). */
export const EPOCH_TIME = '1970-01-01T00:00:00Z';
