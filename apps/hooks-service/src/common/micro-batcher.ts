/**
 * Coalesces calls made in the same turn of the event loop into one batch (DataLoader-style): `add` resolves with
 * the item's own result. Items added while a batch runs go into the next one; nothing waits for a timer, so a lone
 * call costs one `setImmediate`. The batch function returns one settled result per item, in order.
 */
export type Settled<O> = { ok: true; value: O } | { ok: false; error: unknown };

export class MicroBatcher<I, O> {
  private pending: Array<{ item: I; resolve: (v: O) => void; reject: (e: unknown) => void }> = [];
  private scheduled = false;

  constructor(
    private readonly run: (items: I[]) => Promise<Settled<O>[]>,
    private readonly maxBatch = 100,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending.splice(0, this.maxBatch);
    if (this.pending.length && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    if (!batch.length) return;
    this.run(batch.map((b) => b.item)).then(
      (results) => batch.forEach((b, i) => {
        const r = results[i];
        if (r?.ok) b.resolve(r.value);
        else b.reject(r ? r.error : new Error('batch returned no result for an item'));
      }),
      (err: unknown) => batch.forEach((b) => b.reject(err)),
    );
  }
}
