/**
 * Organizations end to end: creation with the Owners team, visibility, teams and team members, members and member
 * publicity — each route with its permission matrix (anonymous, outsider, member, owner, site admin) and bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient, type HttpResponse } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { expectApiError, expectClientError, expectContract, scopeMessage } from './identity-helpers.js';

type Role = 'anonymous' | 'outsider' | 'member' | 'owner' | 'admin';

let suite: TestSuite;
let api: HttpClient;
let admin: Account;
/** Creator, hence owner, of both organizations. */
let owner: Account;
/** In the `devs` team of both organizations; membership concealed. */
let member: Account;
/** Another `devs` member of the public organization. */
let member2: Account;
/** In no organization. */
let outsider: Account;
/** Public organization. */
let org: string;
/** Private organization. */
let privateOrg: string;
let devsTeamId: number;
let ownersTeamId: number;

const json = { 'content-type': 'application/json' };

function as(role: Role): { basic?: Account } {
  const who = { anonymous: undefined, outsider, member, owner, admin }[role];
  return who ? { basic: who } : {};
}

async function addToTeam(teamId: number, user: Account): Promise<void> {
  const res = await api.put(`/teams/${teamId}/members/${user.username}`, { basic: owner });
  expect(res.status, res.text).toBe(204);
}

async function newTeam(orgName: string, name = uniqueName('team')): Promise<number> {
  const res = await api.post(`/orgs/${orgName}/teams`, { basic: owner, body: { name, permission: 'write' } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

const logins = (res: HttpResponse) => (res.body as Array<{ login: string }>).map((u) => u.login).sort();

beforeAll(async () => {
  suite = await sharedTestSuite();
  api = http(suite);
  admin = await suite.createAdmin();
  [owner, member, member2, outsider] = await Promise.all([
    createUser(suite, admin, uniqueName('owner')),
    createUser(suite, admin, uniqueName('member')),
    createUser(suite, admin, uniqueName('member2')),
    createUser(suite, admin, uniqueName('outsider')),
  ]);
  org = uniqueName('org');
  privateOrg = uniqueName('private');
  expect((await api.post('/orgs', { basic: owner, body: { username: org } })).status).toBe(201);
  expect((await api.post('/orgs', { basic: owner, body: { username: privateOrg, visibility: 'private' } })).status).toBe(201);
  const teams = await api.get(`/orgs/${org}/teams`, { basic: owner });
  ownersTeamId = teams.body[0].id;
  devsTeamId = await newTeam(org, 'devs');
  await addToTeam(devsTeamId, member);
  await addToTeam(devsTeamId, member2);
  await addToTeam(await newTeam(privateOrg, 'devs'), member);
});

afterAll(async () => {
  await suite?.stop();
});

describe('POST /orgs', () => {
  it('creates an organization (201) with an Owners team holding the creator', async () => {
    const creator = await createUser(suite, admin, uniqueName('creator'));
    const name = uniqueName('neworg');
    const res = await api.post('/orgs', {
      basic: creator,
      body: { username: name, full_name: 'New Org', description: 'about', website: 'https://example.com', location: 'here', visibility: 'limited' },
    });
    expectContract('POST', '/orgs', res, 201);
    expect(res.body).toMatchObject({
      name, username: name, full_name: 'New Org', description: 'about', website: 'https://example.com', location: 'here', visibility: 'limited',
    });
    const teams = await api.get(`/orgs/${name}/teams`, { basic: creator });
    expectContract('GET', '/orgs/{org}/teams', teams);
    expect(teams.body).toHaveLength(1);
    expect(teams.body[0]).toMatchObject({ name: 'Owners', permission: 'owner', includes_all_repositories: true, can_create_org_repo: true });
    const owners = await api.get(`/teams/${teams.body[0].id}/members`, { basic: creator });
    expectContract('GET', '/teams/{id}/members', owners);
    expect(logins(owners)).toEqual([creator.username]);
    expect(logins(await api.get(`/orgs/${name}/members`, { basic: creator }))).toEqual([creator.username]);
    const mine = await api.get('/user/orgs', { basic: creator });
    expect(mine.body.map((o: { name: string }) => o.name)).toEqual([name]);
  });

  it('answers 401 anonymous, 403 without write:organization, 422 for taken or invalid names, 400 for bad JSON', async () => {
    const name = uniqueName('o');
    expectApiError(await api.post('/orgs', { body: { username: name } }), 401, 'token is required');
    const readOnly = await createToken(suite, outsider, ['read:organization', 'write:user']);
    expectApiError(await api.post('/orgs', { token: readOnly, body: { username: name } }), 403, scopeMessage('write:organization', ['read:organization', 'write:user']));
    const cases: Array<[unknown, number, RegExp]> = [
      [{ username: org }, 422, /already exists/],
      [{ username: member.username.toUpperCase() }, 422, /already exists/],
      [{ username: 'bad name' }, 422, /invalid organization name/],
      [{ username: 'o'.repeat(41) }, 422, /username must be shorter than or equal to 40 characters/],
      [{ username: 42 }, 422, /username must be a string/],
      [{ username: name, visibility: 'secret' }, 422, /visibility must be one of the following values/],
      [{ username: name, description: 'd'.repeat(256) }, 422, /description must be shorter/],
      [{ username: name, repo_admin_change_team_access: 'yes' }, 422, /boolean/],
      [{ username: `nul\u0000${name}` }, 422, /NUL/],
      [{}, 422, /username/],
      ['{"username":', 400, /JSON/],
    ];
    for (const [body, status, message] of cases) {
      expectApiError(await api.post('/orgs', { basic: outsider, body, headers: json }), status, message);
    }
    expectApiError(await api.get(`/orgs/${name}`, { basic: admin }), 404);
    expect((await api.get('/user/orgs', { basic: outsider })).body).toEqual([]);
  });
});

describe('GET /orgs/{org}', () => {
  it.each(['anonymous', 'outsider', 'member', 'owner', 'admin'] as Role[])('shows a public organization to %s', async (role) => {
    const res = await api.get(`/orgs/${org}`, as(role));
    expectContract('GET', '/orgs/{org}', res);
    expect(res.body).toMatchObject({ name: org, visibility: 'public' });
  });

  it.each([
    ['anonymous', 404], ['outsider', 404], ['member', 200], ['owner', 200], ['admin', 200],
  ] as Array<[Role, number]>)('a private organization: %s gets %i', async (role, status) => {
    const res = await api.get(`/orgs/${privateOrg}`, as(role));
    if (status === 200) expect(res.body).toMatchObject({ name: privateOrg, visibility: 'private' });
    else expectApiError(res, status);
  });

  it('answers 404 for unknown organizations and users that are not organizations', async () => {
    expectApiError(await api.get('/orgs/no-such-org'), 404);
    expectApiError(await api.get(`/orgs/${owner.username}`), 404);
    expectClientError(await api.get(`/orgs/${'o'.repeat(300)}`));
    expectClientError(await api.get('/orgs/a%00b'), 400);
  });
});

describe('teams', () => {
  it.each([
    ['anonymous', 401], ['outsider', 403], ['member', 200], ['owner', 200], ['admin', 200],
  ] as Array<[Role, number]>)('GET /orgs/{org}/teams: %s gets %i', async (role, status) => {
    const res = await api.get(`/orgs/${org}/teams`, as(role));
    if (status !== 200) return expectApiError(res, status, status === 403 ? 'Must be an organization member' : undefined);
    expectContract('GET', '/orgs/{org}/teams', res);
    expect(res.body.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['Owners', 'devs']));
    expect(res.headers.get('x-total-count')).toBe(String(res.body.length));
  });

  it('GET /orgs/{org}/teams of a private organization is 404 for outsiders', async () => {
    expectApiError(await api.get(`/orgs/${privateOrg}/teams`, { basic: outsider }), 404);
    expectApiError(await api.get('/orgs/no-such-org/teams', { basic: owner }), 404);
  });

  it.each([
    ['anonymous', 401], ['outsider', 403], ['member', 403], ['owner', 201], ['admin', 201],
  ] as Array<[Role, number]>)('POST /orgs/{org}/teams: %s gets %i', async (role, status) => {
    const name = uniqueName('t');
    const res = await api.post(`/orgs/${org}/teams`, {
      ...as(role),
      body: { name, description: 'a team', permission: 'read', units: ['repo.code', 'repo.issues'], can_create_org_repo: true },
    });
    if (status !== 201) {
      expectApiError(res, status, status === 403 && role === 'member' ? 'Must be an organization owner' : undefined);
      const teams = await api.get(`/orgs/${org}/teams`, { basic: owner });
      expect(teams.body.map((t: { name: string }) => t.name)).not.toContain(name);
      return;
    }
    expectContract('POST', '/orgs/{org}/teams', res, 201);
    expect(res.body).toMatchObject({
      name, description: 'a team', permission: 'read', units: ['repo.code', 'repo.issues'], can_create_org_repo: true,
      includes_all_repositories: false, organization: { name: org },
    });
    expect(res.body.units_map).toEqual({ 'repo.code': 'read', 'repo.issues': 'read' });
  });

  it('POST /orgs/{org}/teams refuses invalid teams (422), bad JSON (400), unknown organizations (404)', async () => {
    const cases: Array<[unknown, number, RegExp]> = [
      [{ name: 'devs' }, 422, /team already exists/],
      [{ name: 'DEVS' }, 422, /team already exists/],
      [{ name: 'bad name!' }, 422, /invalid team name/],
      [{ name: 'x'.repeat(256) }, 422, /name must be shorter/],
      [{ name: 'ok1', permission: 'owner' }, 422, /permission must be one of the following values: read, write, admin/],
      [{ name: 'ok1', permission: 'god' }, 422, /permission/],
      [{ name: 'ok1', units: ['repo.code', 'repo.nope'] }, 422, /units/],
      [{ name: 'ok1', units: 'repo.code' }, 422, /units/],
      [{ name: 'ok1', includes_all_repositories: 1 }, 422, /includes_all_repositories must be a boolean/],
      [{}, 422, /name/],
      ['{"name":', 400, /JSON/],
    ];
    for (const [body, status, message] of cases) {
      expectApiError(await api.post(`/orgs/${org}/teams`, { basic: owner, body, headers: json }), status, message);
    }
    expectApiError(await api.post('/orgs/no-such-org/teams', { basic: owner, body: { name: 'x' } }), 404);
    const teams = await api.get(`/orgs/${org}/teams`, { basic: owner });
    expect(teams.body.map((t: { name: string }) => t.name)).not.toContain('ok1');
  });

  it.each([
    ['anonymous', 401], ['outsider', 403], ['member', 200], ['owner', 200], ['admin', 200],
  ] as Array<[Role, number]>)('GET /teams/{id} and /teams/{id}/members: %s gets %i', async (role, status) => {
    const team = await api.get(`/teams/${devsTeamId}`, as(role));
    const members = await api.get(`/teams/${devsTeamId}/members`, as(role));
    if (status !== 200) {
      expectApiError(team, status);
      expectApiError(members, status);
      return;
    }
    expectContract('GET', '/teams/{id}', team);
    expect(team.body).toMatchObject({ id: devsTeamId, name: 'devs', permission: 'write', organization: { name: org } });
    expectContract('GET', '/teams/{id}/members', members);
    expect(logins(members)).toEqual(expect.arrayContaining([member.username, member2.username].sort()));
  });

  it.each([
    ['anonymous', 401], ['outsider', 403], ['member', 403], ['owner', 204], ['admin', 204],
  ] as Array<[Role, number]>)('PUT and DELETE /teams/{id}/members/{username}: %s gets %i', async (role, status) => {
    const target = await createUser(suite, admin, uniqueName('joiner'));
    const teamId = await newTeam(org);
    const put = await api.put(`/teams/${teamId}/members/${target.username}`, { ...as(role), headers: json });
    if (status !== 204) {
      expectApiError(put, status);
      expect(logins(await api.get(`/teams/${teamId}/members`, { basic: owner }))).toEqual([]);
      await addToTeam(teamId, target);
      expectApiError(await api.delete(`/teams/${teamId}/members/${target.username}`, as(role)), status);
      expect(logins(await api.get(`/teams/${teamId}/members`, { basic: owner }))).toEqual([target.username]);
      return;
    }
    expect(put.status, put.text).toBe(204);
    expect(put.text).toBe('');
    expect(logins(await api.get(`/teams/${teamId}/members`, { basic: owner }))).toEqual([target.username]);
    // Joining a team means joining the organization (concealed).
    expect((await api.get(`/orgs/${org}/members/${target.username}`, { basic: owner })).status).toBe(204);
    expect((await api.get(`/orgs/${org}/public_members/${target.username}`)).status).toBe(404);
    expect((await api.put(`/teams/${teamId}/members/${target.username}`, as(role))).status).toBe(204); // idempotent
    const del = await api.delete(`/teams/${teamId}/members/${target.username}`, { ...as(role), headers: json });
    expect(del.status, del.text).toBe(204);
    expect(logins(await api.get(`/teams/${teamId}/members`, { basic: owner }))).toEqual([]);
    // Leaving the last team means leaving the organization.
    expectApiError(await api.get(`/orgs/${org}/members/${target.username}`, { basic: owner }), 404);
  });

  it('team membership: 404 for unknown users and teams, 400 for non-numeric ids, 422 for the last owner', async () => {
    expectApiError(await api.put(`/teams/${devsTeamId}/members/no-such-user`, { basic: owner }), 404);
    expectApiError(await api.put(`/teams/999999/members/${member.username}`, { basic: owner }), 404);
    expectApiError(await api.put(`/teams/99999999999/members/${member.username}`, { basic: owner }), 404);
    for (const id of ['abc', '0', '-3', '2.5']) {
      expectApiError(await api.put(`/teams/${id}/members/${member.username}`, { basic: owner }), 400, /id must be a positive integer/);
      expectApiError(await api.get(`/teams/${id}`, { basic: owner }), 400);
    }
    expectApiError(await api.delete(`/teams/${ownersTeamId}/members/${owner.username}`, { basic: owner }), 422, /last owner/);
    expect(logins(await api.get(`/teams/${ownersTeamId}/members`, { basic: owner }))).toEqual([owner.username]);
  });
});

describe('members', () => {
  it.each([
    ['anonymous', false], ['outsider', false], ['member', true], ['owner', true], ['admin', true],
  ] as Array<[Role, boolean]>)('GET /orgs/{org}/members: %s sees concealed members: %s', async (role, seesAll) => {
    const res = await api.get(`/orgs/${org}/members`, as(role));
    expectContract('GET', '/orgs/{org}/members', res);
    const everyone = [owner.username, member.username, member2.username];
    if (seesAll) expect(logins(res)).toEqual(expect.arrayContaining(everyone.sort()));
    else expect(logins(res)).toEqual([]); // nobody has made their membership public
    expect(res.headers.get('x-total-count')).toBe(String(res.body.length));
  });

  it.each([
    ['anonymous', 404], ['outsider', 404], ['member', 204], ['owner', 204], ['admin', 204],
  ] as Array<[Role, number]>)('GET /orgs/{org}/members/{username} of a concealed member: %s gets %i', async (role, status) => {
    const res = await api.get(`/orgs/${org}/members/${member.username}`, as(role));
    if (status === 204) expect(res.status, res.text).toBe(204);
    else expectApiError(res, status);
    expectApiError(await api.get(`/orgs/${org}/members/${outsider.username}`, as(role)), 404);
    expectApiError(await api.get(`/orgs/${org}/members/no-such-user`, as(role)), 404);
  });

  it.each([
    ['anonymous', 401], ['outsider', 403], ['member', 403], ['owner', 204], ['admin', 204],
  ] as Array<[Role, number]>)('DELETE /orgs/{org}/members/{username}: %s gets %i', async (role, status) => {
    const target = await createUser(suite, admin, uniqueName('leaver'));
    const teamA = await newTeam(org);
    const teamB = await newTeam(org);
    await addToTeam(teamA, target);
    await addToTeam(teamB, target);
    const res = await api.delete(`/orgs/${org}/members/${target.username}`, as(role));
    if (status !== 204) {
      expectApiError(res, status, role === 'member' ? 'Must be an organization owner' : undefined);
      expect((await api.get(`/orgs/${org}/members/${target.username}`, { basic: owner })).status).toBe(204);
      return;
    }
    expect(res.status, res.text).toBe(204);
    expectApiError(await api.get(`/orgs/${org}/members/${target.username}`, { basic: owner }), 404);
    expect(logins(await api.get(`/teams/${teamA}/members`, { basic: owner }))).toEqual([]);
    expect(logins(await api.get(`/teams/${teamB}/members`, { basic: owner }))).toEqual([]);
  });

  it('DELETE /orgs/{org}/members/{username} keeps the last owner and answers 404 for unknown users', async () => {
    expectApiError(await api.delete(`/orgs/${org}/members/${owner.username}`, { basic: owner }), 422, /last owner/);
    expect((await api.get(`/orgs/${org}/members/${owner.username}`, { basic: owner })).status).toBe(204);
    expectApiError(await api.delete(`/orgs/${org}/members/no-such-user`, { basic: owner }), 404);
    expectApiError(await api.delete('/orgs/no-such-org/members/x', { basic: owner }), 404);
  });
});

describe('member publicity', () => {
  const isPublic = async (user: Account) => {
    const res = await api.get(`/orgs/${org}/public_members/${user.username}`);
    if (res.status !== 204) expectApiError(res, 404);
    return res.status === 204;
  };
  const conceal = async (user: Account) => {
    expect((await api.delete(`/orgs/${org}/public_members/${user.username}`, { basic: admin })).status).toBe(204);
  };

  it('a member publicizes and conceals themself (204); the public lists follow', async () => {
    expect(await isPublic(member)).toBe(false);
    const put = await api.put(`/orgs/${org}/public_members/${member.username}`, { basic: member, headers: json });
    expect(put.status, put.text).toBe(204);
    expect(await isPublic(member)).toBe(true);
    const list = await api.get(`/orgs/${org}/public_members`);
    expectContract('GET', '/orgs/{org}/public_members', list);
    expect(logins(list)).toEqual([member.username]);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect(logins(await api.get(`/orgs/${org}/members`))).toEqual([member.username]);
    expect((await api.get(`/orgs/${org}/members/${member.username}`)).status).toBe(204);
    expect((await api.put(`/orgs/${org}/public_members/${member.username}`, { basic: member })).status).toBe(204); // again
    const del = await api.delete(`/orgs/${org}/public_members/${member.username}`, { basic: member, headers: json });
    expect(del.status, del.text).toBe(204);
    expect(await isPublic(member)).toBe(false);
    expect(logins(await api.get(`/orgs/${org}/public_members`))).toEqual([]);
  });

  it.each(['owner', 'admin'] as Role[])('the %s may change anyone\'s publicity (204)', async (role) => {
    expect((await api.put(`/orgs/${org}/public_members/${member2.username}`, as(role))).status).toBe(204);
    expect(await isPublic(member2)).toBe(true);
    expect((await api.delete(`/orgs/${org}/public_members/${member2.username}`, as(role))).status).toBe(204);
    expect(await isPublic(member2)).toBe(false);
  });

  it('another member may not change someone else\'s publicity (403 "Cannot change member visibility")', async () => {
    expectApiError(await api.put(`/orgs/${org}/public_members/${member2.username}`, { basic: member }), 403, 'Cannot change member visibility');
    expect(await isPublic(member2)).toBe(false);
    expect((await api.put(`/orgs/${org}/public_members/${member2.username}`, { basic: member2 })).status).toBe(204);
    expectApiError(await api.delete(`/orgs/${org}/public_members/${member2.username}`, { basic: member }), 403, 'Cannot change member visibility');
    expect(await isPublic(member2)).toBe(true);
    await conceal(member2);
  });

  it('an outsider may change nobody\'s publicity (403), an anonymous caller gets 401', async () => {
    for (const method of ['PUT', 'DELETE']) {
      const res = await api.request(method, `/orgs/${org}/public_members/${member.username}`, { basic: outsider });
      // One answer for every caller who may not change it (Gitea says "Must be an organization member" here).
      expectApiError(res, 403, 'Cannot change member visibility');
      expectApiError(await api.request(method, `/orgs/${org}/public_members/${member.username}`), 401, 'token is required');
    }
    expect(await isPublic(member)).toBe(false);
  });

  it('answers 404 for unknown users, users who are not members, and unknown organizations', async () => {
    for (const method of ['PUT', 'DELETE']) {
      expectApiError(await api.request(method, `/orgs/${org}/public_members/no-such-user`, { basic: owner }), 404);
      expectApiError(await api.request(method, `/orgs/${org}/public_members/${outsider.username}`, { basic: owner }), 404);
      expectApiError(await api.request(method, `/orgs/${org}/public_members/${outsider.username}`, { basic: admin }), 404);
      expectApiError(await api.request(method, `/orgs/no-such-org/public_members/${member.username}`, { basic: admin }), 404);
    }
    expectApiError(await api.get(`/orgs/${org}/public_members/no-such-user`), 404);
    expectApiError(await api.get('/orgs/no-such-org/public_members'), 404);
    expect(await isPublic(outsider)).toBe(false);
  });

  it('needs write:organization on tokens to change, read:organization to look', async () => {
    const readOnly = await createToken(suite, member, ['read:organization']);
    expectApiError(
      await api.put(`/orgs/${org}/public_members/${member.username}`, { token: readOnly }),
      403,
      scopeMessage('write:organization', ['read:organization']),
    );
    expect((await api.get(`/orgs/${org}/public_members`, { token: readOnly })).status).toBe(200);
    const userOnly = await createToken(suite, member, ['read:user']);
    expectApiError(await api.get(`/orgs/${org}/public_members`, { token: userOnly }), 403, scopeMessage('read:organization', ['read:user']));
    const writer = await createToken(suite, member, ['write:organization']);
    expect((await api.put(`/orgs/${org}/public_members/${member.username}`, { token: writer })).status).toBe(204);
    expect(await isPublic(member)).toBe(true);
    await conceal(member);
  });

  it('on a private organization, outsiders and anonymous callers see nothing (404)', async () => {
    expect((await api.put(`/orgs/${privateOrg}/public_members/${member.username}`, { basic: member })).status).toBe(204);
    expectApiError(await api.get(`/orgs/${privateOrg}/public_members`), 404);
    expectApiError(await api.get(`/orgs/${privateOrg}/public_members/${member.username}`, { basic: outsider }), 404);
    expect((await api.get(`/orgs/${privateOrg}/public_members/${member.username}`, { basic: member })).status).toBe(204);
    expectApiError(await api.put(`/orgs/${privateOrg}/public_members/${member.username}`, { basic: outsider }), 404);
  });
});
