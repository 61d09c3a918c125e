import { describe, expect, it } from 'vitest';
import { toPaging } from '@cairn/contracts';

describe('toPaging', () => {
  it('defaults to page 1 of 30', () => {
    expect(toPaging({})).toEqual({ page: 1, limit: 30, skip: 0, take: 30 });
  });
  it('falls back to the defaults for zero or negative values, like Gitea', () => {
    expect(toPaging({ page: 0, limit: 0 })).toEqual({ page: 1, limit: 30, skip: 0, take: 30 });
    expect(toPaging({ page: -3, limit: -1 })).toEqual({ page: 1, limit: 30, skip: 0, take: 30 });
  });
  it('caps the limit at 50 like Gitea', () => {
    expect(toPaging({ page: 3, limit: 500 })).toEqual({ page: 3, limit: 50, skip: 100, take: 50 });
  });
});
