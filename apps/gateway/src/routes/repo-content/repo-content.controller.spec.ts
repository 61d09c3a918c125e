import { describe, expect, it } from 'vitest';
import { DomainError, ErrorCode } from '@cairn/contracts';
import { parseFilesBodyParam } from './repo-content.controller.js';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return err instanceof DomainError ? `${err.code}:${err.message}` : 'other';
  }
  return 'OK';
}

describe('parseFilesBodyParam (GET /file-contents?body=)', () => {
  it('reads the files of a GetFilesOptions object', () => {
    expect(parseFilesBodyParam('{"files":["a","b/c"]}')).toEqual(['a', 'b/c']);
    expect(parseFilesBodyParam('{"files":[],"other":1}')).toEqual([]);
    expect(parseFilesBodyParam('{}')).toEqual([]);
    expect(parseFilesBodyParam('{"files":null}')).toEqual([]);
  });

  it('answers 400 "invalid body parameter" for a missing or unusable body', () => {
    const bad = `${ErrorCode.INVALID_ARGUMENT}:invalid body parameter`;
    for (const raw of [undefined, '', '{', 'null', '[]', '"x"', '{"files":"a"}', '{"files":[1]}', '{"files":{}}']) {
      expect(codeOf(() => parseFilesBodyParam(raw))).toBe(bad);
    }
  });
});
