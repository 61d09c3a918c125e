import { describe, expect, it } from 'vitest';
import { escapePathSegments, sanitizeTreePath } from './tree-path.js';

describe('sanitizeTreePath', () => {
  it('keeps ordinary tree paths unchanged', () => {
    for (const p of ['README.md', 'docs/guide.md', 'a b/c d.txt', 'dir/.gitignore', 'x/.github/y', 'ünï/çødé']) {
      expect(sanitizeTreePath(p)).toBe(p);
    }
  });

  it('answers the root directory as the empty path', () => {
    expect(sanitizeTreePath('')).toBe('');
  });

  it.each(['../x', '../../etc/passwd', 'a/../../b', 'a/..', 'a/../b', './README.md', 'a/./b', '.', '..'])(
    'rejects traversal %j',
    (p) => {
      expect(sanitizeTreePath(p)).toBeNull();
    },
  );

  it.each(['.git/config', '.git', 'sub/.git/HEAD', '.GIT/config', 'a/.Git'])('rejects a .git segment %j', (p) => {
    expect(sanitizeTreePath(p)).toBeNull();
  });

  it.each(['/etc/passwd', '/README.md', 'a//b', 'dir/', '//x'])('rejects absolute paths and empty segments %j', (p) => {
    expect(sanitizeTreePath(p)).toBeNull();
  });

  it('rejects NUL bytes, line breaks and other control characters', () => {
    for (const p of ['a\0b', 'README.md\0', 'a\nb', 'a\rb', 'tab\there', '\x7f']) {
      expect(sanitizeTreePath(p)).toBeNull();
    }
  });

  it('rejects non-strings and over-long input', () => {
    expect(sanitizeTreePath(undefined)).toBeNull();
    expect(sanitizeTreePath(42)).toBeNull();
    expect(sanitizeTreePath(['a'])).toBeNull();
    expect(sanitizeTreePath('a/'.repeat(3000) + 'b')).toBeNull();
  });

  it('does not treat names that merely contain dots as traversal', () => {
    expect(sanitizeTreePath('..foo')).toBe('..foo');
    expect(sanitizeTreePath('foo..')).toBe('foo..');
    expect(sanitizeTreePath('.gitmodules')).toBe('.gitmodules');
    expect(sanitizeTreePath('x.git')).toBe('x.git');
  });
});

describe('escapePathSegments', () => {
  it('escapes each segment and keeps the slashes', () => {
    expect(escapePathSegments('a b/c#d/ü?.txt')).toBe('a%20b/c%23d/%C3%BC%3F.txt');
  });
});
