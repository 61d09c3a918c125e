import { describe, expect, it } from 'vitest';
import { genericFileNameError, genericPackageNameError, genericVersionError } from './generic-names.js';

describe('generic registry names (Gitea\'s rules plus bounds)', () => {
  it('accepts Gitea\'s package names and refuses the rest', () => {
    for (const ok of ['test', 'te-st_1.2+x', 'A', '7', '...a']) expect(genericPackageNameError(ok)).toBeNull();
    for (const bad of ['', '..', '.', '-', 'a/b', 'a b', 'ä', 'a\0b', 'x'.repeat(256), '../etc']) {
      expect(genericPackageNameError(bad), bad).not.toBeNull();
    }
  });

  it('accepts Gitea\'s file names and refuses traversal, separators, control characters and surrounding spaces', () => {
    for (const ok of ['file.bin', 'a b.tar.gz', 'x=(1)[2]{3}~!@#$%^&;:.txt', '.hidden']) expect(genericFileNameError(ok)).toBeNull();
    for (const bad of ['', '.', '..', '../x', 'a/b', 'a\\b', ' a', 'a ', 'a\0', 'a\nb', 'é.txt', 'x'.repeat(256)]) {
      expect(genericFileNameError(bad), JSON.stringify(bad)).not.toBeNull();
    }
  });

  it('accepts any version without surrounding spaces, separators or control characters', () => {
    for (const ok of ['1.0.0', 'v2-beta+build.5', 'latest', '..x']) expect(genericVersionError(ok)).toBeNull();
    for (const bad of ['', ' 1.0', '1.0 ', '1/0', '1\\0', '1\0', '1\t0', 'x'.repeat(256)]) {
      expect(genericVersionError(bad), JSON.stringify(bad)).not.toBeNull();
    }
  });
});
