import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 (hex) of a runner credential or registration token: the only form either is stored in. */
export function hashRunnerToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A runner's credential token as Gitea makes it: 40 hex characters (20 random bytes). */
export function newRunnerToken(): string {
  return randomBytes(20).toString('hex');
}

/** Whether a presented token matches a stored hash, in constant time. */
export function runnerTokenMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashRunnerToken(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
