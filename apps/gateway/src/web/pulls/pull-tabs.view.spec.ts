import { describe, expect, it } from 'vitest';
import { pullTabsView } from './pull-tabs.view.js';

describe('pullTabsView', () => {
  it('links the three tabs under the pull request, marks the current one and carries the counts', () => {
    const v = pullTabsView('/o/r/pulls/3', { comments: 2, changed_files: 7 }, 'files', 4);
    expect(v.tabs.map((t) => [t.href, t.count, t.current])).toEqual([
      ['/o/r/pulls/3', 2, false],
      ['/o/r/pulls/3/commits', 4, false],
      ['/o/r/pulls/3/files', 7, true],
    ]);
  });

  it('hides the counts it does not know', () => {
    const v = pullTabsView('/o/r/pulls/3', { comments: 0 }, 'conversation', null);
    expect(v.tabs.map((t) => t.count)).toEqual([0, null, null]);
  });
});
