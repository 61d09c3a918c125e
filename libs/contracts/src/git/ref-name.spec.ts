import { describe, expect, it } from 'vitest';
import { isValidRefName, isValidRefNameAfterPrefix, isValidRefOrSha } from './ref-name.js';

describe('isValidRefName', () => {
  it.each(['main', 'feature/x', 'v1.0', 'refs/heads/main', 'release-2024.01', 'a@b', 'ünicode'])('accepts %j', (n) => {
    expect(isValidRefName(n)).toBe(true);
  });

  it.each([
    '',
    '-x',
    '--upload-pack=evil',
    '@',
    'a..b',
    'a@{1}',
    'a b',
    'a~1',
    'a^',
    'a:b',
    'a?',
    'a*',
    'a[',
    'a\\b',
    '/a',
    'a/',
    'a//b',
    'a.',
    '.a',
    'a/.b',
    'a.lock',
    'a/b.lock/c',
    'a\nb',
    'a\0b',
  ])('rejects %j', (n) => {
    expect(isValidRefName(n)).toBe(false);
  });
});

describe('isValidRefOrSha', () => {
  it('accepts hex ids of 4 to 64 digits and ref names', () => {
    expect(isValidRefOrSha('abcd')).toBe(true);
    expect(isValidRefOrSha('a'.repeat(40))).toBe(true);
    expect(isValidRefOrSha('A1B2C3D4')).toBe(true);
    expect(isValidRefOrSha('main')).toBe(true);
  });

  it('rejects option-like and malformed input', () => {
    expect(isValidRefOrSha('-abcd')).toBe(false);
    expect(isValidRefOrSha('HEAD~1')).toBe(false);
    expect(isValidRefOrSha('main^{tree}')).toBe(false);
    expect(isValidRefOrSha(undefined)).toBe(false);
  });
});

describe('isValidRefNameAfterPrefix', () => {
  it('accepts every name git allows under refs/heads/, a leading dash included', () => {
    for (const name of ['main', 'feature/x', '-x', '--x', 'a-b', 'x.y']) expect(isValidRefNameAfterPrefix(name), name).toBe(true);
  });

  it('rejects what git refuses, and full refs', () => {
    for (const name of ['', 'a..b', 'a b', 'a:b', 'x.lock', '.x', 'x/', 'refs/heads/x', 'a@{1}', 'x\u0000']) {
      expect(isValidRefNameAfterPrefix(name), JSON.stringify(name)).toBe(false);
    }
  });
});
