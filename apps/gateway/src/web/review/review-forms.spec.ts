import { describe, expect, it } from 'vitest';
import { DomainError } from '@cairn/contracts';
import { compareUrl, headBranch, idsField, linePlace, milestoneField, reviewEvent, splitCompare } from './review-forms.js';

const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return err instanceof DomainError ? err.code : String(err);
  }
};

describe('review form fields', () => {
  it("splits Gitea's compare paths and builds them back readably", () => {
    expect(splitCompare('main...feature/x', 'dev')).toEqual({ base: 'main', head: 'feature/x' });
    expect(splitCompare('v1..v2', 'dev')).toEqual({ base: 'v1', head: 'v2' });
    expect(splitCompare('feature', 'dev')).toEqual({ base: 'dev', head: 'feature' });
    expect(code(() => splitCompare('main...', 'dev'))).toBe('NOT_FOUND');
    expect(compareUrl('/o/r', 'main', 'bob:feature/x y')).toBe('/o/r/compare/main...bob:feature/x%20y');
    expect(headBranch('bob:feature/x')).toBe('feature/x');
  });

  it('reads ids comma-separated or repeated, and refuses anything else with a 400', () => {
    expect(idsField({ label_ids: '3, 1,3' }, 'label_ids')).toEqual([3, 1]);
    expect(idsField({ label_ids: ['2', '5,6'] }, 'label_ids')).toEqual([2, 5, 6]);
    expect(idsField({}, 'label_ids')).toEqual([]);
    expect(code(() => idsField({ label_ids: '1,x' }, 'label_ids'))).toBe('INVALID_ARGUMENT');
    expect(code(() => idsField({ label_ids: '0' }, 'label_ids'))).toBe('INVALID_ARGUMENT');
    expect(milestoneField('')).toBe(0);
    expect(milestoneField(' 4 ')).toBe(4);
    expect(code(() => milestoneField('-1'))).toBe('INVALID_ARGUMENT');
  });

  it('checks a line comment place and a review type', () => {
    expect(linePlace({ path: 'a.ts', line: '7', side: 'previous' })).toEqual({ path: 'a.ts', line: 7, side: 'previous' });
    expect(linePlace({ path: 'a.ts', line: '7' }).side).toBe('proposed');
    for (const bad of [{ path: '', line: '1' }, { path: 'a', line: '0' }, { path: 'a', line: '1', side: 'left' }]) {
      expect(code(() => linePlace(bad))).toBe('INVALID_ARGUMENT');
    }
    expect([reviewEvent('approve'), reviewEvent('reject'), reviewEvent('comment')]).toEqual(['APPROVED', 'REQUEST_CHANGES', 'COMMENT']);
    expect(code(() => reviewEvent('lgtm'))).toBe('INVALID_ARGUMENT');
  });
});
