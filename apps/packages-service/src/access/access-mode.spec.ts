import type { ActorDto, OrgMembershipReply, OwnerDto, UserDto, Visibility } from '@cairn/contracts';
import { describe, expect, it } from 'vitest';
import { determineAccessMode, tokenScopeAllows } from './access-mode.js';

const actor = (id: number, extra: Partial<ActorDto> = {}): ActorDto => ({
  id, login: `u${id}`, isAdmin: false, scopes: ['all'], hasTwoFactor: false, ...extra,
});
const owner = (id: number, kind: OwnerDto['kind'], visibility: Visibility): OwnerDto => ({
  id, login: `o${id}`, kind, visibility, user: {} as UserDto,
});
const team = (permission: 'read' | 'write' | 'admin' | 'owner', units: string[] = ['repo.packages']) => ({
  id: 1, name: 't', permission, includesAllRepositories: false, canCreateOrgRepo: false, units,
});
const member = (...teams: ReturnType<typeof team>[]): OrgMembershipReply => ({
  isMember: true, isOwner: teams.some((t) => t.permission === 'owner'), teams,
});
const facts = (membership: OrgMembershipReply | null = null, requireSignin = false) => ({ membership, requireSignin });

describe('determineAccessMode (Gitea\'s package access rule)', () => {
  it('gives a user owner access to their own packages, and site admins owner access to all', () => {
    expect(determineAccessMode(actor(1), owner(1, 'user', 'private'), facts())).toBe('owner');
    expect(determineAccessMode(actor(9, { isAdmin: true }), owner(1, 'user', 'private'), facts())).toBe('owner');
    expect(determineAccessMode(actor(9, { isAdmin: true }), owner(5, 'organization', 'private'), facts())).toBe('owner');
  });

  it('lets others read a user\'s packages by the user\'s visibility', () => {
    expect(determineAccessMode(actor(2), owner(1, 'user', 'public'), facts())).toBe('read');
    expect(determineAccessMode(actor(2), owner(1, 'user', 'limited'), facts())).toBe('read');
    expect(determineAccessMode(actor(2), owner(1, 'user', 'private'), facts())).toBe('none');
    expect(determineAccessMode(null, owner(1, 'user', 'public'), facts())).toBe('read');
    expect(determineAccessMode(null, owner(1, 'user', 'limited'), facts())).toBe('none');
  });

  it('refuses anonymous callers everything under REQUIRE_SIGNIN_VIEW', () => {
    expect(determineAccessMode(null, owner(1, 'user', 'public'), facts(null, true))).toBe('none');
    expect(determineAccessMode(null, owner(5, 'organization', 'public'), facts(null, true))).toBe('none');
    expect(determineAccessMode(actor(2), owner(1, 'user', 'public'), facts(null, true))).toBe('read');
  });

  it('gives organization members their strongest team permission on the packages unit', () => {
    const org = owner(5, 'organization', 'public');
    expect(determineAccessMode(actor(2), org, facts(member(team('owner'))))).toBe('owner');
    expect(determineAccessMode(actor(2), org, facts(member(team('read'), team('write'))))).toBe('write');
    // A team without the packages unit grants nothing on packages; an admin team covers every unit.
    expect(determineAccessMode(actor(2), org, facts(member(team('write', ['repo.code']))))).toBe('read');
    expect(determineAccessMode(actor(2), owner(6, 'organization', 'private'), facts(member(team('write', ['repo.code']))))).toBe('read');
    expect(determineAccessMode(actor(2), org, facts(member(team('admin', ['repo.code']))))).toBe('admin');
  });

  it('lets non-members read an organization\'s packages by its visibility', () => {
    const none: OrgMembershipReply = { isMember: false, isOwner: false, teams: [] };
    expect(determineAccessMode(actor(2), owner(5, 'organization', 'public'), facts(none))).toBe('read');
    expect(determineAccessMode(actor(2), owner(5, 'organization', 'limited'), facts(none))).toBe('read');
    expect(determineAccessMode(actor(2), owner(5, 'organization', 'private'), facts(none))).toBe('none');
    expect(determineAccessMode(null, owner(5, 'organization', 'public'), facts())).toBe('read');
    expect(determineAccessMode(null, owner(5, 'organization', 'limited'), facts())).toBe('none');
  });
});

describe('determineAccessMode under TWO_FACTOR_AUTH = enforced', () => {
  it('gives a user who must enrol what the public may see, read only — not even their own or their organization\'s', () => {
    const mustEnrol = (m?: OrgMembershipReply) => ({ ...facts(m), mustEnrolTwoFactor: true });
    const ownerOfOrg: OrgMembershipReply = { isMember: true, isOwner: true, teams: [] };
    expect(determineAccessMode(actor(2), owner(5, 'organization', 'private'), mustEnrol(ownerOfOrg))).toBe('none');
    expect(determineAccessMode(actor(2), owner(5, 'organization', 'limited'), mustEnrol(ownerOfOrg))).toBe('none');
    expect(determineAccessMode(actor(2), owner(5, 'organization', 'public'), mustEnrol(ownerOfOrg))).toBe('read');
    expect(determineAccessMode(actor(2), owner(2, 'user', 'public'), mustEnrol())).toBe('read');
    expect(determineAccessMode(actor(2), owner(2, 'user', 'private'), mustEnrol())).toBe('none');
  });
});

describe('tokenScopeAllows', () => {
  it('needs read:package to read and write:package to write, for tokens only', () => {
    expect(tokenScopeAllows(actor(1, { via: 'token', scopes: ['read:package'] }), 'read')).toBe(true);
    expect(tokenScopeAllows(actor(1, { via: 'token', scopes: ['read:package'] }), 'write')).toBe(false);
    expect(tokenScopeAllows(actor(1, { via: 'token', scopes: ['write:package'] }), 'read')).toBe(true);
    expect(tokenScopeAllows(actor(1, { via: 'token', scopes: ['write:repository'] }), 'read')).toBe(false);
    expect(tokenScopeAllows(actor(1, { via: 'token', scopes: ['all'] }), 'write')).toBe(true);
    expect(tokenScopeAllows(actor(1, { via: 'password', scopes: [] }), 'write')).toBe(true);
  });
});
