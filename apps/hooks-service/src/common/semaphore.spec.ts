import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore.js';

const turn = () => new Promise<void>((r) => setImmediate(r));

describe('Semaphore', () => {
  it('lets `size` holders in and the others in arrival order as places are released', async () => {
    const s = new Semaphore(2);
    const entered: number[] = [];
    const releases = new Map<number, () => void>();
    for (const i of [1, 2, 3, 4, 5]) {
      void s.acquire().then((release) => {
        entered.push(i);
        releases.set(i, release);
      });
    }
    await turn();
    expect(entered).toEqual([1, 2]);
    releases.get(2)!();
    await turn();
    expect(entered).toEqual([1, 2, 3]);
    // Releasing twice frees one place only.
    releases.get(1)!();
    releases.get(1)!();
    await turn();
    expect(entered).toEqual([1, 2, 3, 4]);
    releases.get(3)!();
    releases.get(4)!();
    await turn();
    expect(entered).toEqual([1, 2, 3, 4, 5]);
  });

  it('a place released with nobody waiting is taken at once by the next caller', async () => {
    const s = new Semaphore(1);
    const release = await s.acquire();
    release();
    let got = false;
    void s.acquire().then(() => (got = true));
    await turn();
    expect(got).toBe(true);
  });
});
