import { describe, expect, it } from 'vitest';
import { HistoryCountCache, type HistoryFilter } from './history.js';

const C1 = '1'.repeat(40);
const C2 = '2'.repeat(40);

describe('HistoryCountCache', () => {
  it('answers only for the same repository and exactly the same filter', () => {
    const cache = new HistoryCountCache(100);
    const base: HistoryFilter = { commit: C1, sinceSeconds: 100, untilSeconds: 200 };
    cache.set('/r', base, 7);
    expect(cache.get('/r', { ...base })).toBe(7);
    const others: HistoryFilter[] = [
      { ...base, commit: C2 },
      { ...base, not: C2 },
      { ...base, path: 'src' },
      { ...base, sinceSeconds: 101 },
      { ...base, sinceSeconds: undefined },
      { ...base, untilSeconds: 199 },
      { ...base, untilSeconds: undefined },
      // The bounds swapped must not collide with the original.
      { commit: C1, sinceSeconds: 200, untilSeconds: 100 },
    ];
    for (const f of others) expect(cache.get('/r', f), JSON.stringify(f)).toBeUndefined();
    expect(cache.get('/other', base)).toBeUndefined();
    // A count of zero is an answer too.
    cache.set('/r', { commit: C2 }, 0);
    expect(cache.get('/r', { commit: C2 })).toBe(0);
  });

  it('drops the least recently used entries beyond its bound', () => {
    const cache = new HistoryCountCache(2);
    cache.set('/r', { commit: C1 }, 1);
    cache.set('/r', { commit: C2 }, 2);
    cache.get('/r', { commit: C1 });
    cache.set('/r', { commit: C1, path: 'x' }, 3);
    expect(cache.get('/r', { commit: C2 })).toBeUndefined();
    expect(cache.get('/r', { commit: C1 })).toBe(1);
  });
});
