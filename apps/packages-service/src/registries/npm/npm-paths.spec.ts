import { describe, expect, it } from 'vitest';
import { parseNpmPath } from './npm-paths.js';

describe('parseNpmPath (Gitea routers/api/packages/api.go npm routes)', () => {
  it.each([
    ['pkg', { kind: 'package', name: 'pkg' }],
    ['@scope%2fpkg', { kind: 'package', name: '@scope/pkg' }],
    ['%40scope%2Fpkg', { kind: 'package', name: '@scope/pkg' }],
    ['@scope/pkg', { kind: 'package', name: '@scope/pkg' }],
    ['@scope%2fpkg/-rev/3-abc', { kind: 'revision', name: '@scope/pkg', revision: '3-abc' }],
    ['@scope/pkg/-/1.0.0/pkg-1.0.0.tgz', { kind: 'file', name: '@scope/pkg', version: '1.0.0', filename: 'pkg-1.0.0.tgz' }],
    ['%40scope%2Fpkg/-/1.0.0/pkg-1.0.0.tgz/-rev/undefined', {
      kind: 'file-revision', name: '@scope/pkg', version: '1.0.0', filename: 'pkg-1.0.0.tgz', revision: 'undefined',
    }],
    ['pkg/-/pkg-1.0.0.tgz', { kind: 'file-by-name', name: 'pkg', filename: 'pkg-1.0.0.tgz' }],
    ['@scope/pkg/-/pkg-1.0.0.tgz', { kind: 'file-by-name', name: '@scope/pkg', filename: 'pkg-1.0.0.tgz' }],
    ['-/package/@scope%2fpkg/dist-tags', { kind: 'dist-tags', name: '@scope/pkg' }],
    ['-/package/@scope/pkg/dist-tags/beta', { kind: 'dist-tag', name: '@scope/pkg', tag: 'beta' }],
    ['-/package/pkg/dist-tags', { kind: 'dist-tags', name: 'pkg' }],
    ['-/v1/search', { kind: 'search' }],
  ])('%s', (rest, expected) => {
    expect(parseNpmPath(rest)).toEqual(expected);
  });

  it.each(['', 'pkg/', 'pkg//x', 'pkg/extra', '@scope', '@scope/-', 'pkg/-/a/b/c', '-/v2/search', '-/package/pkg', '-/package/pkg/dist-tags/a/b'])(
    'addresses nothing: %j',
    (rest) => {
      expect(parseNpmPath(rest)).toBeNull();
    },
  );

  it('refuses bad percent-encoding with a 400', () => {
    expect(() => parseNpmPath('%E0%A4%A')).toThrow(/percent-encoding/);
  });
});
