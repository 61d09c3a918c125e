/** RFC 3339 with second precision and `Z`, as Gitea writes times. */
export function toApiTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
