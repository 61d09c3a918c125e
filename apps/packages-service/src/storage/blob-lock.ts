import type { Tx } from '../prisma/prisma.service.js';

/** Injection token of the packages' blob store (`[storage.packages]`). */
export const BLOB_STORE = Symbol('BLOB_STORE');

/** The advisory-lock class of blob locks ("PKGB"), so they never collide with other advisory locks. */
const BLOB_LOCK_CLASS = 0x504b4742;

/**
 * Holds the blob's transaction-scoped lock: an upload committing the blob and the cleanup retiring it serialise on it
 * (until the transaction ends).
 */
export async function lockBlob(tx: Tx, sha256: string): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(${BLOB_LOCK_CLASS}::int, hashtext(${sha256}))::text`;
}
