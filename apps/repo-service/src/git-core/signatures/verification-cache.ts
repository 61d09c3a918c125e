import { LruCache } from '@cairn/platform';
import type { SigningKeyOwner } from '@cairn/contracts';
import type { SignatureOutcome } from './signature-checker.js';

// Outcomes keyed by commit id plus each consulted account's id and `keysVersion`: a key change misses at once, a page
// read again costs no cryptography. The repository is not in the key: an outcome says nothing about trust.
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
