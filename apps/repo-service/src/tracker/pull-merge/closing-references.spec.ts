import { describe, expect, it } from 'vitest';
import { closingReferences } from './closing-references.js';

describe('closingReferences', () => {
  it("finds Gitea's keywords before #n, in any case, title and body alike", () => {
    expect(closingReferences('Fix the parser (closes #2)\n\nAlso Resolves: #7, fixed #2.', 'o', 'r')).toEqual([2, 7]);
    for (const word of ['close', 'closes', 'closed', 'fix', 'fixes', 'fixed', 'resolve', 'resolves', 'resolved']) {
      expect(closingReferences(`${word} #4`, 'o', 'r')).toEqual([4]);
    }
  });

  it('takes owner/repo#n for this repository only', () => {
    expect(closingReferences('closes O/R#3 and closes other/r#4 and fixes o/elsewhere#5', 'o', 'r')).toEqual([3]);
  });

  it('needs a keyword as a word of its own, and a number', () => {
    expect(closingReferences('see #2; disclose #3; prefix#4; closes #; closes #0; encloses #5', 'o', 'r')).toEqual([]);
  });
});
