// Equal jitter (a uniform draw in the upper half), so a burst of failures does not come back in lockstep.
export function backoffDelayMs(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/** `Retry-After` as delta-seconds or an HTTP date → milliseconds from `now` (null if absent or unparsable). */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

export function nextRetryDelayMs(
  retry: number,
  opts: { baseMs: number; maxMs: number; retryAfterMs?: number | null },
  random: () => number = Math.random,
): number {
  const delay = backoffDelayMs(retry, opts.baseMs, opts.maxMs, random);
  if (opts.retryAfterMs === null || opts.retryAfterMs === undefined) return delay;
  return Math.min(opts.maxMs, Math.max(delay, opts.retryAfterMs));
}
