import { describe, expect, it } from 'vitest';
import { RepositoryPaths } from './repository-paths.js';

describe('RepositoryPaths', () => {
  it('remembers a path for a minute, then asks again; forget drops it at once', () => {
    const paths = new RepositoryPaths();
    paths.set(7, '/srv/a/b.git', 1_000);
    expect(paths.get(7, 1_000 + 59_999)).toBe('/srv/a/b.git');
    expect(paths.get(7, 1_000 + 60_000)).toBeUndefined();
    expect(paths.get(7, 1_000)).toBeUndefined();
    paths.set(8, '/srv/a/c.git', 5_000);
    paths.forget(8);
    expect(paths.get(8, 5_000)).toBeUndefined();
    expect(paths.get(9)).toBeUndefined();
  });
});
