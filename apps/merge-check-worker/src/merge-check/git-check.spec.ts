import { describe, expect, it } from 'vitest';
import { repositoryPath } from './git-check.js';

describe('repository storage path', () => {
  it('is <root>/<owner>/<name>.git, lower-cased', () => {
    expect(repositoryPath('/srv/repos', 'Alice', 'Proj')).toBe('/srv/repos/alice/proj.git');
  });
  it('refuses names that could leave the root or read as options', () => {
    for (const [o, r] of [['..', 'x'], ['a', '..'], ['a/b', 'x'], ['a', 'x.git'], ['', 'x']]) {
      expect(() => repositoryPath('/srv/repos', o, r)).toThrow();
    }
  });
});
