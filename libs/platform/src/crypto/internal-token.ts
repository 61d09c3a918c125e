import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Constant time, hashed first so lengths do not leak; every internal endpoint checks it this way. */
export function internalTokenMatches(presented: string | string[] | undefined, expected: string): boolean {
  if (typeof presented !== 'string' || !presented) return false;
  return timingSafeEqual(digest(presented), digest(expected));
}
