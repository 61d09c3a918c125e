import { describe, expect, it } from 'vitest';
import { TEAM_UNITS } from '@cairn/contracts';
import { minUnitAccess, resolveTeamUnits } from './team-units.js';

describe('team units', () => {
  it('takes the lowest mode above none, ignoring read-only external units', () => {
    expect(minUnitAccess({ 'repo.code': 'write', 'repo.issues': 'read', 'repo.wiki': 'none' })).toBe('read');
    expect(minUnitAccess({ 'repo.code': 'admin', 'repo.ext_wiki': 'read' })).toBe('admin');
    expect(minUnitAccess({ 'repo.code': 'none' })).toBe('none');
  });

  it('lets units_map decide the permission below admin', () => {
    const s = resolveTeamUnits('admin', { units_map: { 'repo.code': 'write' } }, { units: [], unitsMap: {} });
    expect(s.permission).toBe('admin');
    expect(s.units).toEqual([...TEAM_UNITS]);
    const w = resolveTeamUnits('read', { units_map: { 'repo.code': 'write', 'repo.pulls': 'write' } }, { units: [], unitsMap: {} });
    expect(w).toEqual({ permission: 'write', units: ['repo.code', 'repo.pulls'], unitsMap: { 'repo.code': 'write', 'repo.pulls': 'write' } });
  });

  it('gives units the permission, and keeps the current units when none are asked for', () => {
    expect(resolveTeamUnits('write', { units: ['repo.code', 'repo.code'] }, { units: [], unitsMap: {} }))
      .toEqual({ permission: 'write', units: ['repo.code'], unitsMap: {} });
    const current = { units: ['repo.issues'], unitsMap: { 'repo.issues': 'read' } };
    expect(resolveTeamUnits('read', {}, current)).toEqual({ permission: 'read', ...current });
  });
});
