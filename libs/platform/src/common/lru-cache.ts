/**
 * A map bounded to `maxEntries`, least recently used entries going first — the one bounded in-process cache of the
 * apps. Meant for keys that name immutable facts (a commit id names the whole history behind it, a sealed secret its
 * plaintext), where entries never go stale and only memory needs a bound; a caller whose entries can age stores the
 * time with the value and checks it on `get`.
 */
export class LruCache<V, K = string> {
  private readonly entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {}

  get(key: K): V | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as K);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
