/** Gitea writes RFC 3339 with whole seconds and `Z`, and reads it as Go's `time.RFC3339` does (a zone is required). */

/** Gitea's "never" for unset times (`last_login`, `archived_at`): the Unix epoch. */
export const EPOCH_TIME = '1970-01-01T00:00:00Z';

export function toApiTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export interface Rfc3339Instant {
  seconds: number;
  fractional: boolean;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2}))$/;

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** What Go's `time.Parse(time.RFC3339, …)` accepts (a zone is required, every field in range). */
export function parseRfc3339(value: string): Rfc3339Instant | null {
  const m = RFC3339.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetSeconds = 0;
  if (m[8] !== 'Z') {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offsetSeconds = (m[9] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  return { seconds: Math.floor(d.getTime() / 1000) - offsetSeconds, fractional: /[1-9]/.test(m[7] ?? '') };
}

export function parseApiTime(value: string): Date | null {
  const instant = parseRfc3339(value);
  if (!instant) return null;
  const fraction = /\.(\d{1,3})/.exec(value.slice(19))?.[1] ?? '';
  return new Date(instant.seconds * 1000 + Number(fraction.padEnd(3, '0')));
}
