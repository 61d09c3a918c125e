import { describe, expect, it } from 'vitest';
import { MicroBatcher } from './micro-batcher.js';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const turn = () => new Promise<void>((r) => setImmediate(r));

describe('MicroBatcher', () => {
  it('coalesces calls of one turn into one batch and gives each caller its own result', async () => {
    const batches: number[][] = [];
    const b = new MicroBatcher<number, number>(async (items) => {
      batches.push(items);
      return items.map((i) => (i === 3 ? { ok: false as const, error: new Error('three') } : { ok: true as const, value: i * 10 }));
    });
    const results = await Promise.allSettled([1, 2, 3, 4].map((i) => b.add(i)));
    expect(batches).toEqual([[1, 2, 3, 4]]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([10, 20, 'three', 40]);
    expect(await b.add(5)).toBe(50);
    expect(batches).toEqual([[1, 2, 3, 4], [5]]);
  });

  it('splits at the maximum batch size and rejects every caller when the batch fails', async () => {
    const sizes: number[] = [];
    const b = new MicroBatcher<number, number>(async (items) => {
      sizes.push(items.length);
      return items.map((value) => ({ ok: true as const, value }));
    }, { maxBatch: 3 });
    await Promise.all(Array.from({ length: 7 }, (_, i) => b.add(i)));
    expect(sizes).toEqual([3, 3, 1]);
    const failing = new MicroBatcher<number, number>(async () => {
      throw new Error('down');
    });
    await expect(Promise.all([failing.add(1), failing.add(2)])).rejects.toThrow('down');
    const throwing = new MicroBatcher<number, number>(() => {
      throw new Error('synchronously');
    }, { maxInFlight: 1 });
    await expect(throwing.add(1)).rejects.toThrow('synchronously');
    await expect(throwing.add(2)).rejects.toThrow('synchronously');
  });

  it('with maxInFlight, what arrives while a batch runs waits and goes into one next batch', async () => {
    const batches: number[][] = [];
    const gates: Array<ReturnType<typeof deferred<void>>> = [];
    const b = new MicroBatcher<number, number>(async (items) => {
      batches.push(items);
      const gate = deferred<void>();
      gates.push(gate);
      await gate.promise;
      return items.map((value) => ({ ok: true as const, value: -value }));
    }, { maxInFlight: 1 });

    const first = b.add(1);
    await turn();
    expect(batches).toEqual([[1]]);
    // Three later turns while the first batch is in flight: no new batch yet.
    const later: Array<Promise<number>> = [];
    for (const i of [2, 3, 4]) {
      later.push(b.add(i));
      await turn();
    }
    expect(batches).toEqual([[1]]);
    gates[0].resolve();
    expect(await first).toBe(-1);
    await turn();
    await turn();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    gates[1].resolve();
    expect(await Promise.all(later)).toEqual([-2, -3, -4]);
  });

  it('runs up to maxInFlight batches side by side', async () => {
    let running = 0;
    let most = 0;
    const b = new MicroBatcher<number, number>(async (items) => {
      running++;
      most = Math.max(most, running);
      await turn();
      running--;
      return items.map((value) => ({ ok: true as const, value }));
    }, { maxBatch: 2, maxInFlight: 2 });
    expect(await Promise.all(Array.from({ length: 10 }, (_, i) => b.add(i)))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(most).toBe(2);
  });
});
