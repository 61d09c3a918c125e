import { describe, expect, it } from 'vitest';
import { DomainError } from '@cairn/contracts';
import { repoStoragePath } from './repo-storage-path.js';

describe('repository storage path', () => {
  it('is <root>/<owner>/<name>.git, lower-cased', () => {
    expect(repoStoragePath('/srv/repos', 'Alice', 'Proj')).toBe('/srv/repos/alice/proj.git');
    expect(repoStoragePath('/srv/repos/', 'a.b-c_d', 'x.y')).toBe('/srv/repos/a.b-c_d/x.y.git');
  });

  it.each([
    ['..', 'x'], ['a', '..'], ['.', 'x'], ['a/b', 'x'], ['a', 'x.git'], ['a', 'X.GIT'], ['', 'x'], ['a', 'b c'],
    ['a', '-x\n'], ['a', 'x'.repeat(101)],
  ])('refuses %j / %j with a 400', (o, r) => {
    expect(() => repoStoragePath('/srv/repos', o, r)).toThrow(DomainError);
  });
});
