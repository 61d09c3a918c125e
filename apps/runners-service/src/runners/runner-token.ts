import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 hex of registration tokens and runner credentials; tokens are random, so an unsalted fast hash is enough. */
export function hashRunnerToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new random token: 40 hex characters (160 bits), Gitea's length. */
export function newRunnerToken(): string {
  return randomBytes(20).toString('hex');
}

export function runnerTokenMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashRunnerToken(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
