/** DataLoader-style: calls of one event-loop turn share a batch, so batches grow under load while a lone call waits for no timer. */
export type Settled<O> = { ok: true; value: O } | { ok: false; error: unknown };

export interface MicroBatcherOptions {
  maxBatch?: number;
  maxInFlight?: number;
}

export class MicroBatcher<I, O> {
  private pending: Array<{ item: I; resolve: (v: O) => void; reject: (e: unknown) => void }> = [];
  private scheduled = false;
  private inFlight = 0;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;

  constructor(
    private readonly run: (items: I[]) => Promise<Settled<O>[]>,
    options: MicroBatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 100;
    this.maxInFlight = options.maxInFlight ?? Number.POSITIVE_INFINITY;
  }

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || !this.pending.length || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.pending.length && this.inFlight < this.maxInFlight) {
      const batch = this.pending.splice(0, this.maxBatch);
      this.inFlight++;
      let running: Promise<Settled<O>[]>;
      try {
        running = this.run(batch.map((b) => b.item));
      } catch (err) {
        running = Promise.reject(err);
      }
      void running
        .then(
          (results) => batch.forEach((b, i) => {
            const r = results[i];
            if (r?.ok) b.resolve(r.value);
            else b.reject(r ? r.error : new Error('batch returned no result for an item'));
          }),
          (err: unknown) => batch.forEach((b) => b.reject(err)),
        )
        .finally(() => {
          this.inFlight--;
          this.schedule();
        });
    }
  }
}

