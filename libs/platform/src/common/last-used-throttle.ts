/** At most once per id per interval in this process; the conditional UPDATE makes replicas' writes race-free. 0: every use. */
export class LastUsedThrottle {
  private readonly lastWrite = new Map<number, number>();

  constructor(
    readonly intervalMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 100_000,
  ) {}

  claim(id: number): boolean {
    if (this.intervalMs <= 0) return true;
    const t = this.now();
    const last = this.lastWrite.get(id);
    if (last !== undefined && t - last < this.intervalMs) return false;
    this.lastWrite.set(id, t);
    if (this.lastWrite.size > this.maxEntries) this.prune(t);
    return true;
  }

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

/** Failures are logged, never thrown; `settle()` waits for writes in flight (shutdown, tests). */
export class UsageRecorder {
  private readonly pending = new Set<Promise<void>>();
  writes = 0;
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
