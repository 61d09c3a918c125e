import { GITHUB_LOCK_REASONS } from '@cairn/contracts';

export type LockReasonCheck = { ok: true; reason: string | null } | { ok: false; message: string; accepted: string[] };

/** GitHub's four reasons plus `LOCK_REASONS`, without case-insensitive duplicates, GitHub's spelling first. */
export function acceptedLockReasons(configured: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const r of [...GITHUB_LOCK_REASONS, ...configured]) {
    const v = r.trim();
    if (!v || seen.has(v.toLowerCase())) continue;
    seen.add(v.toLowerCase());
    out.push(v);
  }
  return out;
}

/** Matched case-insensitively; the accepted spelling is stored, as GitHub clients expect in `active_lock_reason`. */
export function checkLockReason(input: unknown, configured: readonly string[]): LockReasonCheck {
  const accepted = acceptedLockReasons(configured);
  if (input === undefined || input === null) return { ok: true, reason: null };
  if (typeof input !== 'string') {
    return { ok: false, message: `lock_reason must be a string, one of: ${quoteAll(accepted)}`, accepted };
  }
  const wanted = input.trim().toLowerCase();
  if (wanted === '') return { ok: true, reason: null };
  const hit = accepted.find((r) => r.toLowerCase() === wanted);
  if (hit === undefined) {
    return {
      ok: false,
      message: `lock_reason "${input.slice(0, 100)}" is not accepted; use one of: ${quoteAll(accepted)}`,
      accepted,
    };
  }
  return { ok: true, reason: hit };
}

function quoteAll(values: string[]): string {
  return values.map((v) => `"${v}"`).join(', ');
}
