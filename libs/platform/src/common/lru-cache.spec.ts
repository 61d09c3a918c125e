import { describe, expect, it } from 'vitest';
import { LruCache } from './lru-cache.js';

describe('LruCache', () => {
  it('keeps at most maxEntries, dropping the least recently used first', () => {
    const c = new LruCache<string>(2);
    c.set('a', 'A');
    c.set('b', 'B');
    expect(c.get('a')).toBe('A'); // a is now the most recently used
    c.set('c', 'C');
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe('A');
    expect(c.get('c')).toBe('C');
    expect(c.size).toBe(2);
  });

  it('replaces a value without growing, deletes and clears; keys may be numbers', () => {
    const c = new LruCache<number, number>(3);
    c.set(1, 10);
    c.set(1, 11);
    expect(c.size).toBe(1);
    expect(c.get(1)).toBe(11);
    c.delete(1);
    expect(c.get(1)).toBeUndefined();
    c.set(2, 20);
    c.clear();
    expect(c.size).toBe(0);
  });
});
