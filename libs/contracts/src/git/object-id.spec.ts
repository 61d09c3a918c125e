import { describe, expect, it } from 'vitest';
import { ABBREVIATED_OBJECT_ID_PATTERN, isObjectId, isZeroId, OBJECT_ID_PATTERN, ZERO_SHA, zeroIdLike } from './object-id.js';

const SHA1 = 'a'.repeat(40);
const SHA256 = 'b'.repeat(64);

describe('object ids', () => {
  it('accepts full SHA-1 and SHA-256 ids', () => {
    expect(isObjectId(SHA1)).toBe(true);
    expect(isObjectId(SHA256)).toBe(true);
    expect(OBJECT_ID_PATTERN.test(ZERO_SHA)).toBe(true);
  });

  it.each(['', 'a'.repeat(39), 'a'.repeat(41), 'a'.repeat(63), 'a'.repeat(65), 'A'.repeat(40), `${'a'.repeat(39)}g`, `-${'a'.repeat(39)}`])(
    'refuses %j as a full id',
    (v) => expect(isObjectId(v)).toBe(false),
  );

  it('refuses what is not a string', () => {
    expect(isObjectId(undefined)).toBe(false);
    expect(isObjectId(42)).toBe(false);
  });

  it('takes abbreviated ids of 4 to 64 digits in either case', () => {
    expect(ABBREVIATED_OBJECT_ID_PATTERN.test('abcD')).toBe(true);
    expect(ABBREVIATED_OBJECT_ID_PATTERN.test('abc')).toBe(false);
    expect(ABBREVIATED_OBJECT_ID_PATTERN.test('a'.repeat(65))).toBe(false);
  });
});

describe('zero ids', () => {
  it('knows the zero id of both hashes', () => {
    expect(isZeroId(ZERO_SHA)).toBe(true);
    expect(isZeroId('0'.repeat(64))).toBe(true);
  });

  it.each(['', '0', '0'.repeat(39), '0'.repeat(41), '0'.repeat(63), SHA1, SHA256, undefined])('%j is not a zero id', (v) => {
    expect(isZeroId(v)).toBe(false);
  });

  it('gives the zero id of the same hash', () => {
    expect(zeroIdLike(SHA1)).toBe(ZERO_SHA);
    expect(zeroIdLike(SHA256)).toBe('0'.repeat(64));
    expect(zeroIdLike(64)).toBe('0'.repeat(64));
  });
});
