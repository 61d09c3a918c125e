import type { PrismaService, Tx } from './prisma.service.js';

/** Creations queue on the repository's counter row lock, so bursts may wait well past Prisma's 2 s / 5 s defaults. */
export const TX_OPTIONS = { maxWait: 15_000, timeout: 30_000 } as const;

/** Prisma's own limits (2 s to start, 5 s to finish), for writes that never queue on a counter row. */
export const PRISMA_TX_LIMITS = {} as const;

export function inTx<T>(
  prisma: PrismaService,
  fn: (tx: Tx) => Promise<T>,
  limits: { maxWait?: number; timeout?: number } = TX_OPTIONS,
): Promise<T> {
  return prisma.$transaction(fn, limits);
}
