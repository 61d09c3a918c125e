import { describe, expect, it } from 'vitest';
import { teamMembersAssignable } from './assignees.js';

describe('which teams make their members assignable (Gitea GetRepoAssignees)', () => {
  it('needs a unit at write or above, or read on pull requests', () => {
    expect(teamMembersAssignable({ units_map: { 'repo.code': 'write' } })).toBe(true);
    expect(teamMembersAssignable({ units_map: { 'repo.code': 'read', 'repo.issues': 'admin' } })).toBe(true);
    expect(teamMembersAssignable({ units_map: { 'repo.code': 'read', 'repo.pulls': 'read' } })).toBe(true);
    expect(teamMembersAssignable({ units_map: { 'repo.code': 'read', 'repo.issues': 'read' } })).toBe(false);
    expect(teamMembersAssignable({ units_map: { 'repo.pulls': 'none' } })).toBe(false);
    expect(teamMembersAssignable({ units_map: {} })).toBe(false);
  });
});
