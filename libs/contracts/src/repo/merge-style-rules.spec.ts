import { describe, expect, it } from 'vitest';
import {
  allowedMergeStyles, allowedUpdateStyles, mergeStyleAllowed, updateStyleAllowed, type MergeSettings,
} from './merge-style-rules.js';

const none: MergeSettings = {
  allow_merge_commits: false, allow_rebase: false, allow_rebase_explicit: false, allow_squash_merge: false,
  allow_fast_forward_only_merge: false, allow_manual_merge: false, allow_rebase_update: false,
};

describe('merge style rules', () => {
  it('allows each style by its own setting, in Gitea order', () => {
    const settings = { ...none, allow_rebase: true, allow_squash_merge: true, allow_fast_forward_only_merge: true };
    expect(allowedMergeStyles(settings)).toEqual(['rebase', 'squash', 'fast-forward-only']);
    expect(allowedMergeStyles({ ...none, allow_rebase_explicit: true, allow_merge_commits: true })).toEqual(['merge', 'rebase-merge']);
    expect(mergeStyleAllowed(settings, 'merge')).toBe(false);
    expect(mergeStyleAllowed(settings, 'squash')).toBe(true);
  });

  it('never offers manually-merged as a merge, though the setting allows the request', () => {
    const settings = { ...none, allow_manual_merge: true };
    expect(mergeStyleAllowed(settings, 'manually-merged')).toBe(true);
    expect(allowedMergeStyles(settings)).toEqual([]);
  });

  it('always allows updating by merge, by rebase only with allow_rebase_update', () => {
    expect(allowedUpdateStyles(none)).toEqual(['merge']);
    expect(updateStyleAllowed(none, 'rebase')).toBe(false);
    expect(allowedUpdateStyles({ ...none, allow_rebase_update: true })).toEqual(['merge', 'rebase']);
  });
});
