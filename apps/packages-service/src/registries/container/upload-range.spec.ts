import { describe, expect, it } from 'vitest';
import { checkChunk, parseContentRange, uploadRangeHeader } from './upload-range.js';

describe('upload ranges', () => {
  it('parses <start>-<end> (and the bytes= form some clients send)', () => {
    expect(parseContentRange(undefined)).toBeUndefined();
    expect(parseContentRange('0-9')).toEqual({ start: 0, end: 9 });
    expect(parseContentRange('bytes=10-19')).toEqual({ start: 10, end: 19 });
    expect(() => parseContentRange('x-1')).toThrow(/not <start>-<end>/);
    expect(() => parseContentRange('9-0')).toThrow(/ends before it starts/);
  });

  it('a chunk must continue where the session ends and match its length', () => {
    expect(() => checkChunk({ start: 0, end: 9 }, 0, 10)).not.toThrow();
    expect(() => checkChunk(undefined, 0, undefined)).not.toThrow();
    expect(() => checkChunk(undefined, 5, undefined)).toThrow(/only accepted as the first/);
    try {
      checkChunk({ start: 3, end: 9 }, 10, 7);
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: 'RANGE_INVALID', status: 416 });
    }
    expect(() => checkChunk({ start: 10, end: 19 }, 10, 5)).toThrow(/does not match Content-Length 5/);
  });

  it('answers Range 0-<last byte>', () => {
    expect(uploadRangeHeader(0)).toBe('0-0');
    expect(uploadRangeHeader(10)).toBe('0-9');
  });
});
