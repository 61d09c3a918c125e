/**
 * A map bounded to `maxEntries`, least recently used entries going first. For caches whose keys name immutable
 * facts (a commit id names the whole history behind it), where entries never go stale and only memory is bounded.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(readonly maxEntries: number) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
