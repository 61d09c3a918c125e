import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, IdentityEvents, type ActorDto } from '@cairn/contracts';
import { actorOf, startIdentityTestEnv, type IdentityTestEnv } from '../../test/identity-test-env.js';
import { OrgsService } from './orgs.service.js';

describe('organizations, teams and members (integration)', () => {
  let env: IdentityTestEnv;
  let orgs: OrgsService;
  let admin: ActorDto;
  let owner: ActorDto;
  let member: ActorDto;
  let stranger: ActorDto;
  let devTeamId: number;

  beforeAll(async () => {
    env = await startIdentityTestEnv();
    orgs = env.get(OrgsService);
    admin = actorOf(await env.createUser('root', { admin: true }));
    owner = actorOf(await env.createUser('olga'));
    member = actorOf(await env.createUser('mike'));
    await env.createUser('mona');
    stranger = actorOf(await env.createUser('sam'));
  });
  afterAll(async () => {
    await env?.close();
  });

  it('creates an organization whose Owners team holds the creator', async () => {
    const org = await orgs.create(owner, { username: 'acme', full_name: 'ACME Inc.', visibility: 'public' });
    expect(org).toMatchObject({ name: 'acme', username: 'acme', full_name: 'ACME Inc.', visibility: 'public' });
    const teams = await orgs.listTeams(owner, 'acme', {});
    expect(teams.items).toHaveLength(1);
    expect(teams.items[0]).toMatchObject({
      name: 'Owners',
      permission: 'owner',
      includes_all_repositories: true,
      can_create_org_repo: true,
      organization: null,
    });
    const ownersMembers = await orgs.listTeamMembers(owner, teams.items[0].id, {});
    expect(ownersMembers.items.map((u) => u.login)).toEqual(['olga']);
    const membership = await orgs.membership(org.id, owner.id);
    expect(membership).toMatchObject({ isMember: true, isOwner: true });
    expect(await orgs.membership(org.id, stranger.id)).toEqual({ isMember: false, isOwner: false, teams: [] });
    // All standings in one call agree with the per-organization answer.
    expect(await orgs.standings(owner.id)).toEqual([{ orgId: org.id, ...membership }]);
    expect(await orgs.standings(stranger.id)).toEqual([]);
    const events = await env.sql.query(`SELECT subject FROM identity.outbox_events ORDER BY created_at`);
    expect(events.rows.map((r) => r.subject)).toEqual(expect.arrayContaining([IdentityEvents.orgCreated, IdentityEvents.memberAdded]));
  });

  it('shares the user namespace and validates names', async () => {
    await expect(orgs.create(owner, { username: 'MIKE' })).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: 'user already exists',
    });
    await expect(orgs.create(owner, { username: 'Acme' })).rejects.toMatchObject({ message: 'user already exists' });
    await expect(orgs.create(owner, { username: 'bad name' })).rejects.toMatchObject({ code: ErrorCode.UNPROCESSABLE });
  });

  it('creates teams (owners only), refuses duplicates, and manages team members', async () => {
    await expect(orgs.createTeam(stranger, 'acme', { name: 'devs' })).rejects.toMatchObject({
      code: ErrorCode.PERMISSION_DENIED,
      message: 'Must be an organization owner',
    });
    const team = await orgs.createTeam(owner, 'acme', { name: 'devs', permission: 'write', units: ['repo.code'] });
    devTeamId = team.id;
    expect(team).toMatchObject({ name: 'devs', permission: 'write', units: ['repo.code'], units_map: { 'repo.code': 'write' } });
    expect(team.organization?.name).toBe('acme');
    await expect(orgs.createTeam(owner, 'acme', { name: 'DEVS' })).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: 'team already exists',
    });

    await orgs.addTeamMember(owner, team.id, 'mike');
    await orgs.addTeamMember(owner, team.id, 'mike'); // idempotent
    await orgs.addTeamMember(admin, team.id, 'mona');
    expect((await orgs.listTeamMembers(owner, team.id, {})).items.map((u) => u.login)).toEqual(['mike', 'mona']);
    expect(await orgs.membership((await orgs.get(null, 'acme')).id, member.id)).toMatchObject({
      isMember: true,
      isOwner: false,
      teams: [{ name: 'devs', permission: 'write' }],
    });
    await expect(orgs.addTeamMember(member, team.id, 'sam')).rejects.toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
    await expect(orgs.addTeamMember(owner, team.id, 'ghost')).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(orgs.addTeamMember(owner, 999_999, 'mike')).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });

    await orgs.addTeamMember(owner, team.id, 'sam');
    await orgs.removeTeamMember(owner, team.id, 'sam');
    expect(await orgs.checkMember(owner, 'acme', 'sam')).toBe(false); // left the last team: left the org
    const removed = await env.sql.query(`SELECT 1 FROM identity.outbox_events WHERE subject = $1`, [IdentityEvents.memberRemoved]);
    expect(removed.rowCount).toBe(1);
  });

  it('looks teams up for other services (identity.team.lookup): by name or id, all-repository teams, member ids', async () => {
    const acme = await orgs.get(null, 'acme');
    const owners = (await orgs.listTeams(owner, 'acme', {})).items.find((t) => t.permission === 'owner')!;
    const byName = await orgs.lookupTeams({ orgId: acme.id, names: ['DEVS', 'ghost'], withMembers: true });
    expect(byName.teams).toEqual([{ team: expect.objectContaining({ id: devTeamId, name: 'devs', organization: null }), memberIds: [member.id, expect.any(Number)] }]);
    const byId = await orgs.lookupTeams({ orgId: acme.id, ids: [devTeamId], includingAll: true, withOrganization: true });
    expect(byId.teams.map((t) => t.team.id)).toEqual([owners.id, devTeamId]);
    expect(byId.teams[0].team.organization?.name).toBe('acme');
    expect(byId.teams[0].memberIds).toBeUndefined();
    // Another organization's id finds nothing; neither does an empty question.
    expect((await orgs.lookupTeams({ orgId: acme.id + 100_000, ids: [devTeamId] })).teams).toEqual([]);
    expect((await orgs.lookupTeams({ orgId: acme.id })).teams).toEqual([]);
  });

  it('never removes the last owner', async () => {
    const owners = (await orgs.listTeams(owner, 'acme', {})).items.find((t) => t.permission === 'owner')!;
    await expect(orgs.removeTeamMember(owner, owners.id, 'olga')).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: 'cannot remove the last owner',
    });
    await expect(orgs.removeMember(admin, 'acme', 'olga')).rejects.toMatchObject({ message: 'cannot remove the last owner' });
    await orgs.addTeamMember(owner, owners.id, 'root');
    await orgs.removeTeamMember(admin, owners.id, 'root');
    expect(await orgs.checkMember(owner, 'acme', 'root')).toBe(false);
  });

  it('lists teams only for members and admins', async () => {
    await expect(orgs.listTeams(stranger, 'acme', {})).rejects.toMatchObject({
      code: ErrorCode.PERMISSION_DENIED,
      message: 'Must be an organization member',
    });
    await expect(orgs.listTeams(admin, 'acme', {})).resolves.toMatchObject({ total: 2 });
    await expect(orgs.listTeams(member, 'acme', {})).resolves.toMatchObject({ total: 2 });
  });

  it('answers the public member matrix', async () => {
    const denied = { code: ErrorCode.PERMISSION_DENIED, message: 'Cannot change member visibility' };
    // Members see every member; everyone else only public ones.
    expect((await orgs.listMembers(member, 'acme', {})).items.map((u) => u.login)).toEqual(['olga', 'mike', 'mona']);
    expect((await orgs.listMembers(null, 'acme', {})).items).toEqual([]);
    expect(await orgs.checkMember(null, 'acme', 'mike')).toBe(false);

    await orgs.setPublicMember(member, 'acme', 'mike', true); // self
    expect(await orgs.checkPublicMember(null, 'acme', 'mike')).toBe(true);
    expect(await orgs.checkMember(null, 'acme', 'mike')).toBe(true);
    await orgs.setPublicMember(owner, 'acme', 'mona', true); // an owner, for another member
    await orgs.setPublicMember(admin, 'acme', 'mona', false); // a site admin (not a member)
    expect(await orgs.checkPublicMember(null, 'acme', 'mona')).toBe(false);
    await orgs.setPublicMember(admin, 'acme', 'mona', true);
    await expect(orgs.setPublicMember(member, 'acme', 'mona', false)).rejects.toMatchObject(denied); // another member
    await expect(orgs.setPublicMember(stranger, 'acme', 'mike', false)).rejects.toMatchObject({
      code: ErrorCode.PERMISSION_DENIED,
    });
    await expect(orgs.setPublicMember(owner, 'acme', 'sam', true)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(orgs.setPublicMember(owner, 'acme', 'ghost', true)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(orgs.setPublicMember(owner, 'nope', 'mike', true)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });

    expect((await orgs.listPublicMembers(null, 'acme', {})).items.map((u) => u.login)).toEqual(['mike', 'mona']);
    expect((await orgs.listMembers(stranger, 'acme', {})).items.map((u) => u.login)).toEqual(['mike', 'mona']);
    expect((await orgs.list(stranger, 'mike', {})).items.map((o) => o.name)).toEqual(['acme']);
    expect((await orgs.list(stranger, 'olga', {})).items).toEqual([]); // olga's membership is private
    expect((await orgs.list(owner, 'olga', {})).items.map((o) => o.name)).toEqual(['acme']);
  });

  it('removes members from every team, owners and admins only', async () => {
    await expect(orgs.removeMember(member, 'acme', 'mona')).rejects.toMatchObject({
      code: ErrorCode.PERMISSION_DENIED,
      message: 'Must be an organization owner',
    });
    await orgs.removeMember(owner, 'acme', 'mona');
    expect(await orgs.checkMember(owner, 'acme', 'mona')).toBe(false);
    expect((await orgs.listTeamMembers(owner, devTeamId, {})).items.map((u) => u.login)).toEqual(['mike']);
  });

  it('hides private organizations from non-members and limited ones from anonymous users', async () => {
    await orgs.create(owner, { username: 'secret-org', visibility: 'private' });
    await orgs.create(owner, { username: 'inner-org', visibility: 'limited' });
    await expect(orgs.get(stranger, 'secret-org')).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(orgs.get(null, 'secret-org')).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(orgs.get(owner, 'secret-org')).resolves.toMatchObject({ visibility: 'private' });
    await expect(orgs.get(admin, 'secret-org')).resolves.toMatchObject({ name: 'secret-org' });
    await expect(orgs.get(null, 'inner-org')).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(orgs.get(stranger, 'inner-org')).resolves.toMatchObject({ name: 'inner-org' });
    expect((await orgs.list(null, undefined, {})).items.map((o) => o.name)).toEqual(['acme']);
    expect((await orgs.list(stranger, undefined, {})).items.map((o) => o.name)).toEqual(['acme', 'inner-org']);
    expect((await orgs.list(owner, undefined, {})).items.map((o) => o.name)).toEqual(['acme', 'inner-org', 'secret-org']);
    await expect(orgs.listMembers(stranger, 'secret-org', {})).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });

  it('lets admins create organizations for other users', async () => {
    await expect(orgs.create(member, { username: 'forsam' }, 'sam')).rejects.toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
    const org = await orgs.create(admin, { username: 'forsam' }, 'sam');
    expect((await orgs.membership(org.id, stranger.id)).isOwner).toBe(true);
    expect((await orgs.membership(org.id, admin.id)).isMember).toBe(false);
  });
});
