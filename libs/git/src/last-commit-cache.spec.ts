import { describe, expect, it } from 'vitest';
import { LastCommitCache } from './last-commits.js';

const lc = (sha: string) => ({ sha, committerDate: '2024-01-01T00:00:00Z', authorDate: '2024-01-01T00:00:00Z' });

describe('LastCommitCache', () => {
  it('answers by repository, commit and path', () => {
    const cache = new LastCommitCache(10);
    cache.set('/r', 'c1', 'a', lc('x'));
    expect(cache.get('/r', 'c1', 'a')).toEqual(lc('x'));
    expect(cache.get('/r', 'c2', 'a')).toBeUndefined();
    expect(cache.get('/other', 'c1', 'a')).toBeUndefined();
    expect(cache.get('/r', 'c1', 'b')).toBeUndefined();
  });

  it('drops the least recently used entries beyond its bound', () => {
    const cache = new LastCommitCache(2);
    cache.set('/r', 'c', 'a', lc('1'));
    cache.set('/r', 'c', 'b', lc('2'));
    cache.get('/r', 'c', 'a');
    cache.set('/r', 'c', 'c', lc('3'));
    expect(cache.size).toBe(2);
    expect(cache.get('/r', 'c', 'b')).toBeUndefined();
    expect(cache.get('/r', 'c', 'a')).toEqual(lc('1'));
    expect(cache.get('/r', 'c', 'c')).toEqual(lc('3'));
  });
});
