import { describe, expect, it } from 'vitest';
import { computeAccess, computeUnitAccess, maxAccess, type AccessFacts, type OrgStanding } from './access-level.js';

const OWNER = 1;
const ORG = 50;
const alice = { id: 10, isAdmin: false };
const admin = { id: 99, isAdmin: true };

const userRepo = (isPrivate: boolean) => ({ ownerId: OWNER, ownerKind: 'user', isPrivate });
const orgRepo = (isPrivate: boolean) => ({ ownerId: ORG, ownerKind: 'organization', isPrivate });

const member = (teams: OrgStanding['teams'] = [], isOwner = false): OrgStanding => ({ isMember: true, isOwner, teams });
const team = (id: number, permission: OrgStanding['teams'][number]['permission'], includesAllRepositories = false) => ({
  id,
  permission,
  includesAllRepositories,
});

function access(f: Partial<AccessFacts> & Pick<AccessFacts, 'repo'>) {
  return computeAccess({ user: null, ...f });
}

describe('computeAccess — user repositories', () => {
  it('gives the owner owner access, public or private', () => {
    expect(access({ user: { id: OWNER, isAdmin: false }, repo: userRepo(true) })).toBe('owner');
    expect(access({ user: { id: OWNER, isAdmin: false }, repo: userRepo(false) })).toBe('owner');
  });

  it('treats site administrators as owners (Gitea)', () => {
    expect(access({ user: admin, repo: userRepo(true) })).toBe('owner');
    expect(access({ user: admin, repo: userRepo(true), ownerVisibility: 'private' })).toBe('owner');
  });

  it('lets everyone, anonymous included, read a public repository', () => {
    expect(access({ repo: userRepo(false) })).toBe('read');
    expect(access({ user: alice, repo: userRepo(false) })).toBe('read');
  });

  it('gives strangers nothing on a private repository', () => {
    expect(access({ repo: userRepo(true) })).toBe('none');
    expect(access({ user: alice, repo: userRepo(true) })).toBe('none');
  });

  it.each(['read', 'write', 'admin'] as const)('gives a %s collaborator exactly that', (mode) => {
    expect(access({ user: alice, repo: userRepo(true), collaboration: mode })).toBe(mode);
    expect(access({ user: alice, repo: userRepo(false), collaboration: mode })).toBe(mode);
  });

  it('never lowers a public repository below read', () => {
    expect(access({ user: alice, repo: userRepo(false), collaboration: 'none' })).toBe('read');
  });

  it('hides public repositories of limited owners from anonymous callers only', () => {
    expect(access({ repo: userRepo(false), ownerVisibility: 'limited' })).toBe('none');
    expect(access({ user: alice, repo: userRepo(false), ownerVisibility: 'limited' })).toBe('read');
  });

  it('hides public repositories of private owners from strangers but not from collaborators', () => {
    expect(access({ user: alice, repo: userRepo(false), ownerVisibility: 'private' })).toBe('none');
    expect(access({ user: alice, repo: userRepo(false), ownerVisibility: 'private', collaboration: 'read' })).toBe('read');
  });
});

describe('computeAccess — organization repositories', () => {
  it('gives organization owners owner access', () => {
    expect(access({ user: alice, repo: orgRepo(true), org: member([team(1, 'owner', true)], true) })).toBe('owner');
  });

  it('gives members without a team nothing on a private repository and read on a public one', () => {
    expect(access({ user: alice, repo: orgRepo(true), org: member() })).toBe('none');
    expect(access({ user: alice, repo: orgRepo(false), org: member() })).toBe('read');
  });

  it('grants the permission of teams that include all repositories', () => {
    expect(access({ user: alice, repo: orgRepo(true), org: member([team(2, 'write', true)]) })).toBe('write');
    expect(access({ user: alice, repo: orgRepo(true), org: member([team(2, 'admin', true)]) })).toBe('admin');
  });

  it('grants team permission through an explicit team repository, and ignores other teams', () => {
    const org = member([team(3, 'write'), team(4, 'admin')]);
    expect(access({ user: alice, repo: orgRepo(true), org, repoTeamIds: [3] })).toBe('write');
    expect(access({ user: alice, repo: orgRepo(true), org, repoTeamIds: [] })).toBe('none');
  });

  it('takes the strongest of several teams and the collaboration', () => {
    const org = member([team(5, 'read', true), team(6, 'write'), team(7, 'admin')]);
    expect(access({ user: alice, repo: orgRepo(true), org, repoTeamIds: [6] })).toBe('write');
    expect(access({ user: alice, repo: orgRepo(true), org, repoTeamIds: [6], collaboration: 'admin' })).toBe('admin');
    expect(access({ user: alice, repo: orgRepo(true), org: member([team(5, 'write', true)]), collaboration: 'read' })).toBe(
      'write',
    );
  });

  it('gives outside collaborators their mode', () => {
    expect(access({ user: alice, repo: orgRepo(true), org: null, collaboration: 'write' })).toBe('write');
  });

  it('hides a private organization from non-members and shows it to members', () => {
    expect(access({ user: alice, repo: orgRepo(false), ownerVisibility: 'private', org: null })).toBe('none');
    expect(access({ user: alice, repo: orgRepo(false), ownerVisibility: 'private', org: member() })).toBe('read');
    expect(access({ repo: orgRepo(false), ownerVisibility: 'private' })).toBe('none');
  });

  it('ignores teams with no permission', () => {
    expect(access({ user: alice, repo: orgRepo(true), org: member([team(8, 'none', true)]) })).toBe('none');
  });
});

describe('maxAccess', () => {
  it('orders none < read < write < admin < owner', () => {
    expect(maxAccess('read', 'write')).toBe('write');
    expect(maxAccess('owner', 'admin')).toBe('owner');
    expect(maxAccess('none', 'none')).toBe('none');
  });
});

describe('computeUnitAccess — teams with per-unit modes (units_map)', () => {
  const triage = { ...team(7, 'read', true), unitsMap: { 'repo.code': 'read', 'repo.issues': 'write' } };
  it('gives each unit the team\'s mode for it; units the team lacks get none on private repositories', () => {
    const f: AccessFacts = { user: alice, repo: orgRepo(true), org: member([triage]) };
    const overall = computeAccess(f);
    expect(overall).toBe('read');
    expect(computeUnitAccess(f, overall)).toEqual({ issues: 'write', pulls: 'none', releases: 'none' });
    expect(computeAccess(f, 'code')).toBe('read');
  });

  it('takes the strongest source per unit: collaboration, other teams, public read', () => {
    const writers = { ...team(8, 'write', true), unitsMap: { 'repo.code': 'write', 'repo.pulls': 'write' } };
    const f: AccessFacts = { user: alice, repo: orgRepo(false), org: member([triage, writers]) };
    const overall = computeAccess(f);
    expect(overall).toBe('write');
    expect(computeUnitAccess(f, overall)).toEqual({ releases: 'read' });
    expect(computeUnitAccess({ ...f, collaboration: 'admin' }, computeAccess({ ...f, collaboration: 'admin' }))).toBeUndefined();
  });

  it('has nothing to say without per-unit modes, or for teams that do not reach the repository', () => {
    const f: AccessFacts = { user: alice, repo: orgRepo(true), org: member([team(9, 'write', true)]) };
    expect(computeUnitAccess(f, computeAccess(f))).toBeUndefined();
    const notGiven: AccessFacts = { user: alice, repo: orgRepo(true), org: member([{ ...triage, includesAllRepositories: false }]) };
    expect(computeAccess(notGiven)).toBe('none');
    expect(computeUnitAccess(notGiven, 'none')).toBeUndefined();
  });
});
