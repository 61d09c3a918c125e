import { describe, expect, it } from 'vitest';
import { inlineDisposition } from './content-type.js';

describe('inlineDisposition', () => {
  it('keeps an ASCII fallback and the exact UTF-8 name', () => {
    expect(inlineDisposition('ü "x".txt')).toBe(`inline; filename="_ _x_.txt"; filename*=UTF-8''%C3%BC%20%22x%22.txt`);
  });
});
