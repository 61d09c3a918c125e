import type { PrismaService, Tx } from './prisma.service.js';

/**
 * Transaction limits for issue and pull-request writes. Creations in one repository queue on its number counter's
 * row lock, so under bursts a transaction may wait well beyond Prisma's defaults (2 s to start, 5 s to finish)
 * without anything being wrong.
 */
export const TX_OPTIONS = { maxWait: 15_000, timeout: 30_000 } as const;

/** Prisma's own limits (2 s to start, 5 s to finish), for writes that never queue on a counter row. */
export const PRISMA_TX_LIMITS = {} as const;

/** `prisma.$transaction(fn)`, with {@link TX_OPTIONS} unless other limits are given. */
export function inTx<T>(
  prisma: PrismaService,
  fn: (tx: Tx) => Promise<T>,
  limits: { maxWait?: number; timeout?: number } = TX_OPTIONS,
): Promise<T> {
  return prisma.$transaction(fn, limits);
}
