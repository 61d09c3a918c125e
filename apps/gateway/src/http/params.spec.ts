import { describe, expect, it } from 'vitest';
import { DomainError, ErrorCode, MAX_INT32 } from '@cairn/contracts';
import { PositiveIntPipe } from './params.js';

const pipe = new PositiveIntPipe();
const meta = { type: 'param', data: 'id' } as const;
const codeOf = (value: string | number) => {
  try {
    pipe.transform(value, meta);
    return null;
  } catch (err) {
    return (err as DomainError).code;
  }
};

describe('PositiveIntPipe', () => {
  it('accepts positive integers given as text or already converted', () => {
    expect(pipe.transform('42', meta)).toBe(42);
    expect(pipe.transform(42, meta)).toBe(42);
    expect(pipe.transform(String(MAX_INT32), meta)).toBe(MAX_INT32);
  });

  it('answers INVALID_ARGUMENT for anything that is not a positive integer', () => {
    for (const v of ['abc', '0', '-1', '1.5', '', Number.NaN, 0, -3, 2.5]) expect(codeOf(v)).toBe(ErrorCode.INVALID_ARGUMENT);
  });

  it('answers NOT_FOUND for ids beyond any row (not a database error)', () => {
    for (const v of [String(MAX_INT32 + 1), '99999999999999999999', 1e20]) expect(codeOf(v)).toBe(ErrorCode.NOT_FOUND);
  });
});
