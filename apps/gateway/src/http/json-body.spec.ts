import { describe, expect, it } from 'vitest';
import { bodyLimits, jsonDepthExceeds } from './json-body.js';

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(jsonDepthExceeds('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ s: '[[[[[[{{{{{' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ s: 'quote \\" [[[[' }), 1)).toBe(false);
    expect(jsonDepthExceeds('[]'.repeat(1000), 1)).toBe(false);
  });

  it('stops at the limit on 100,000 nested arrays', () => {
    expect(jsonDepthExceeds('['.repeat(100_000) + ']'.repeat(100_000), 64)).toBe(true);
  });
});

describe('bodyLimits', () => {
  it('gives the file-content routes a base64 file plus a normal body', () => {
    expect(bodyLimits({ maxBodyBytes: 1024 * 1024, uploadFileMaxMb: 3 }, 2)).toEqual({
      json: 1024 * 1024,
      fileContent: 4 * 1024 * 1024 + 1024 * 1024,
      attachment: 2 * 1024 * 1024 + 1024 * 1024,
    });
  });
});
