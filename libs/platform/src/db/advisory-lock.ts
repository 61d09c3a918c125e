/** What a transaction-scoped advisory lock needs of any service's Prisma transaction client. */
export interface RawQueryTx {
  $queryRaw(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<unknown>;
}

/**
 * Takes the advisory lock (`lockClass`, `key`) until the transaction ends; each kind of lock has its own class, so keys
 * of different kinds never collide.
 */
export async function lockForTransaction(tx: RawQueryTx, lockClass: number, key: string): Promise<void> {
  // `::text`: Prisma cannot read back the `void` the lock function returns.
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(${lockClass}::int, hashtext(${key}))::text`;
}
