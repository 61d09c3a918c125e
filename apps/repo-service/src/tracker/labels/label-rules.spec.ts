import { describe, expect, it } from 'vitest';
import { exclusiveScope, normalizeColor, parseLabelRefs, withExclusiveScopes } from './label-rules.js';

describe('label rules', () => {
  it('normalizes colors as Gitea does', () => {
    expect(normalizeColor('#AABBCC')).toBe('#aabbcc');
    expect(normalizeColor('aabbcc')).toBe('#aabbcc');
    expect(normalizeColor('0aF')).toBe('#00aaff');
  });

  it('finds the scope of exclusive labels only', () => {
    expect(exclusiveScope({ name: 'priority/high', exclusive: true })).toBe('priority');
    expect(exclusiveScope({ name: 'a/b/c', exclusive: true })).toBe('a/b');
    expect(exclusiveScope({ name: 'priority/high', exclusive: false })).toBe('');
    expect(exclusiveScope({ name: '/high', exclusive: true })).toBe('');
    expect(exclusiveScope({ name: 'priority/', exclusive: true })).toBe('');
    expect(exclusiveScope({ name: 'plain', exclusive: true })).toBe('');
  });

  it('keeps one exclusive label per scope, the last added', () => {
    const high = { id: 1, name: 'priority/high', exclusive: true };
    const low = { id: 2, name: 'priority/low', exclusive: true };
    const bug = { id: 3, name: 'bug', exclusive: false };
    const loose = { id: 4, name: 'priority/maybe', exclusive: false };
    expect(withExclusiveScopes([high, bug, loose], [low]).map((l) => l.id).sort()).toEqual([2, 3, 4]);
    expect(withExclusiveScopes([], [high, low]).map((l) => l.id)).toEqual([2]);
    expect(withExclusiveScopes([high], [bug]).map((l) => l.id)).toEqual([1, 3]);
  });

  it('takes ids or names, not both', () => {
    expect(parseLabelRefs([1, 2])).toEqual({ ids: [1, 2], names: [] });
    expect(parseLabelRefs(['a'])).toEqual({ ids: [], names: ['a'] });
    expect(() => parseLabelRefs([1, 'a'])).toThrow(/strings or integers/);
    expect(() => parseLabelRefs([{}])).toThrow(/integer or a string/);
  });
});
