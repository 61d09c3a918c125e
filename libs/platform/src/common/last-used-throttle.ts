/**
 * Decides whether a "last used" timestamp needs writing: at most once per id per interval in this process, so a
 * busy token costs no database work inside its window. Replicas each keep their own map; the conditional UPDATE
 * makes their writes race-free. An interval of 0 writes on every use.
 */
export class LastUsedThrottle {
  private readonly lastWrite = new Map<number, number>();

  constructor(
    readonly intervalMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 100_000,
  ) {}

  /** True when a write should be attempted now; records the attempt. */
  claim(id: number): boolean {
    if (this.intervalMs <= 0) return true;
    const t = this.now();
    const last = this.lastWrite.get(id);
    if (last !== undefined && t - last < this.intervalMs) return false;
    this.lastWrite.set(id, t);
    if (this.lastWrite.size > this.maxEntries) this.prune(t);
    return true;
  }

  /** Forgets a claim whose write failed, so the next use tries again. */
  release(id: number): void {
    this.lastWrite.delete(id);
  }

  get size(): number {
    return this.lastWrite.size;
  }

  private prune(t: number): void {
    for (const [id, at] of this.lastWrite) if (t - at >= this.intervalMs) this.lastWrite.delete(id);
    // Still too many live entries: drop the oldest (insertion order) — the DB condition still protects us.
    while (this.lastWrite.size > this.maxEntries) {
      const first = this.lastWrite.keys().next().value as number;
      this.lastWrite.delete(first);
    }
  }
}

/**
 * Records uses off the request path: a throttled, fire-and-forget conditional write whose failure is logged, never
 * thrown. `settle()` waits for writes in flight (shutdown, tests).
 */
export class UsageRecorder {
  private readonly pending = new Set<Promise<void>>();
  /** Writes issued to the database (for tests and metrics). */
  writes = 0;
  /** Uses that needed no write (inside the window). */
  skipped = 0;

  constructor(
    private readonly throttle: LastUsedThrottle,
    private readonly write: (id: number, intervalMs: number) => Promise<unknown>,
    private readonly onError: (id: number, err: unknown) => void,
  ) {}

  record(id: number): void {
    if (!this.throttle.claim(id)) {
      this.skipped++;
      return;
    }
    this.writes++;
    const p: Promise<void> = this.write(id, this.throttle.intervalMs)
      .then(() => undefined)
      .catch((err: unknown) => {
        this.throttle.release(id);
        this.onError(id, err);
      })
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  async settle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }
}
