import { LruCache } from '@cairn/platform';
import type { SigningKeyOwner } from '@cairn/contracts';
import type { SignatureOutcome } from './signature-checker.js';

/**
 * Signature outcomes by commit and by the keys they were checked against: the key is the commit id plus the
 * id and `keysVersion` of every account consulted (the committer's, and the owners of the OpenPGP key ids looked
 * up), so a key added, removed or verified — a new version — misses at once, while a page read again costs no
 * cryptography. The repository is not part of the key: an outcome says nothing about trust. Bounded in memory.
 */
export class VerificationCache {
  private readonly entries: LruCache<SignatureOutcome>;

  constructor(maxEntries = 20_000) {
    this.entries = new LruCache(maxEntries);
  }

  key(sha: string, owners: ReadonlyArray<SigningKeyOwner | null>): string {
    return [sha, ...owners.map((o) => (o ? `${o.user.id}:${o.keysVersion}` : '-'))].join('\0');
  }

  get(key: string): SignatureOutcome | undefined {
    return this.entries.get(key);
  }

  set(key: string, outcome: SignatureOutcome): void {
    this.entries.set(key, outcome);
  }

  clear(): void {
    this.entries.clear();
  }
}
