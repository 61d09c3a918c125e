import { describe, expect, it } from 'vitest';
import { digestHex, digestProblem, isDigest, isImageName, isTag, parseManifestReference } from './oci-reference.js';

const HEX = 'a'.repeat(64);

describe('OCI names', () => {
  it('accepts the spec repository names and refuses the rest', () => {
    for (const ok of ['busybox', 'library/busybox', 'a.b_c__d---e', 'x/y/z', 'a1-2']) expect(isImageName(ok), ok).toBe(true);
    for (const bad of ['', 'Busybox', '-a', 'a-', 'a//b', 'a/', '/a', 'a..b', 'a___b', '../etc', 'a\0b', 'a b', 'x'.repeat(256)]) {
      expect(isImageName(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('tags: 1..128 characters, not starting with . or -', () => {
    expect(isTag('latest')).toBe(true);
    expect(isTag('v1.0.0-rc_1')).toBe(true);
    expect(isTag('_x')).toBe(true);
    expect(isTag('t'.repeat(128))).toBe(true);
    expect(isTag('t'.repeat(129))).toBe(false);
    for (const bad of ['', '.x', '-x', 'a/b', 'a:b', '..']) expect(isTag(bad), bad).toBe(false);
  });

  it('digests: sha256 with 64 lowercase hex only, with a reason for the rest', () => {
    expect(isDigest(`sha256:${HEX}`)).toBe(true);
    expect(digestProblem(`sha256:${HEX}`)).toBeUndefined();
    expect(digestProblem(`sha256:${HEX.toUpperCase()}`)).toMatch(/64 lowercase hexadecimal/);
    expect(digestProblem(`sha256:${HEX.slice(1)}`)).toMatch(/64 lowercase hexadecimal/);
    expect(digestProblem(`sha512:${'b'.repeat(128)}`)).toMatch(/algorithm "sha512" is not supported/);
    expect(digestProblem('latest')).toMatch(/is not a digest/);
    expect(digestProblem('sha256:../../etc/passwd')).toMatch(/is not a digest/);
    expect(digestHex(`sha256:${HEX}`)).toBe(HEX);
    expect(() => digestHex('sha256:zz')).toThrow();
  });

  it('a manifest reference is a digest or a tag', () => {
    expect(parseManifestReference(`sha256:${HEX}`)).toEqual({ kind: 'digest', digest: `sha256:${HEX}` });
    expect(parseManifestReference('v1')).toEqual({ kind: 'tag', tag: 'v1' });
    expect(parseManifestReference('sha256:short')).toBeUndefined();
    expect(parseManifestReference('..')).toBeUndefined();
  });
});
