import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * Compares the internal token an internal HTTP request presents (`x-cairn-internal-token`) with the expected one in
 * constant time (hashes first, so lengths do not leak). Every internal endpoint checks it the same way.
 */
export function internalTokenMatches(presented: string | string[] | undefined, expected: string): boolean {
  if (typeof presented !== 'string' || !presented) return false;
  return timingSafeEqual(digest(presented), digest(expected));
}
