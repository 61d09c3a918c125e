import { describe, expect, it } from 'vitest';
import { MicroBatcher } from './micro-batcher.js';

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
    }, 3);
    await Promise.all(Array.from({ length: 7 }, (_, i) => b.add(i)));
    expect(sizes).toEqual([3, 3, 1]);
    const failing = new MicroBatcher<number, number>(async () => {
      throw new Error('down');
    });
    await expect(Promise.all([failing.add(1), failing.add(2)])).rejects.toThrow('down');
  });
});
