/** Prisma 7 keeps the constraint in the driver error. */
export function uniqueViolation(err: unknown): string | null {
  const e = err as {
    code?: unknown;
    meta?: { target?: unknown; driverAdapterError?: { cause?: { constraint?: unknown } } };
  };
  if (e?.code !== 'P2002') return null;
  const c = e.meta?.driverAdapterError?.cause?.constraint;
  if (typeof c === 'string') return c;
  if (c && typeof c === 'object' && typeof (c as { index?: unknown }).index === 'string') {
    return (c as { index: string }).index;
  }
  const t = e.meta?.target;
  return Array.isArray(t) ? t.join(',') : typeof t === 'string' ? t : '';
}
