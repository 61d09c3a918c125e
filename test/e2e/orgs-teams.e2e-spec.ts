/**
 * Organization and team editing end to end (issue 14, item 9), driven mostly through gitea-js (a client generated
 * from Gitea's description): `PATCH /orgs/{org}`, `PATCH|DELETE /teams/{id}` with `units`/`units_map`, one team
 * member, and team repositories — whose grant really changes repository access (a team writer can push over HTTP).
 */
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, gitRunner, httpCloneUrl, redact, workspace, type Git } from '../support/git.js';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { expectApiError } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
let admin: Account;
let owner: Account;
let member: Account;
let outsider: Account;
let ownerToken: string;
let org: string;
let repo: string;
const ws = workspace('cairn-e2e-teams-');
let git: Git;

type Client = ReturnType<typeof giteaApi>;
let client: Client;

function giteaClient(token: string): Client {
  return giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
}

beforeAll(async () => {
  suite = await sharedTestSuite();
  api = http(suite);
  git = gitRunner(ws.dir('home'));
  admin = await suite.createAdmin();
  [owner, member, outsider] = await Promise.all(
    ['owner', 'member', 'outsider'].map((stem) => createUser(suite, admin, uniqueName(stem))),
  );
  ownerToken = await createToken(suite, owner, ['write:organization', 'write:repository']);
  client = giteaClient(ownerToken);
  org = uniqueName('org');
  expect((await api.post('/orgs', { basic: owner, body: { username: org } })).status).toBe(201);
  repo = uniqueName('repo');
  const created = await api.post(`/orgs/${org}/repos`, { basic: owner, body: { name: repo, private: true, auto_init: true } });
  expect(created.status, created.text).toBe(201);
}, 120_000);

afterAll(async () => {
  await suite?.stop();
  ws.cleanup();
});

describe('PATCH /orgs/{org} (orgEdit)', () => {
  it('changes the profile and visibility for an owner; absent fields stay', async () => {
    const res = await client.orgs.orgEdit(org, {
      full_name: 'Acme Inc.', description: 'makers', website: 'https://acme.example', location: 'Mars',
      visibility: 'limited', repo_admin_change_team_access: true, email: 'hello@acme.example',
    });
    expect(res.data).toMatchObject({
      username: org, full_name: 'Acme Inc.', description: 'makers', website: 'https://acme.example', location: 'Mars',
      visibility: 'limited', repo_admin_change_team_access: true, email: 'hello@acme.example',
    });
    const again = await client.orgs.orgEdit(org, { location: 'Venus' });
    expect(again.data).toMatchObject({ full_name: 'Acme Inc.', location: 'Venus', visibility: 'limited' });
    // Limited: anonymous callers no longer see it.
    expect((await api.get(`/orgs/${org}`)).status).toBe(404);
    expect((await client.orgs.orgEdit(org, { visibility: 'public' })).data.visibility).toBe('public');
    expect((await api.get(`/orgs/${org}`)).body.full_name).toBe('Acme Inc.');
  });

  it('refuses non-owners, bad input and read-only tokens', async () => {
    expectApiError(await api.patch(`/orgs/${org}`, { basic: outsider, body: { location: 'x' } }), 403, 'Must be an organization owner');
    expectApiError(await api.patch(`/orgs/${org}`, { basic: owner, body: { visibility: 'secret' } }), 422);
    expectApiError(await api.patch(`/orgs/${org}`, { basic: owner, body: { website: 'not a url' } }), 422, 'website must be an http(s) URL');
    expectApiError(await api.patch(`/orgs/${org}`, { basic: owner, body: { email: 'nope' } }), 422);
    const readOnly = await createToken(suite, owner, ['read:organization']);
    expect((await api.patch(`/orgs/${org}`, { token: readOnly, body: { location: 'x' } })).status).toBe(403);
    expectApiError(await api.patch(`/orgs/${uniqueName('missing')}`, { basic: owner, body: {} }), 404);
  });
});

describe('teams', () => {
  it('edits a team: name, description, permission; units_map sets per-unit access and lowers the permission', async () => {
    const created = await api.post(`/orgs/${org}/teams`, {
      basic: owner,
      body: { name: uniqueName('t'), permission: 'admin', units_map: { 'repo.code': 'write', 'repo.issues': 'read' } },
    });
    expect(created.status, created.text).toBe(201);
    // Admin permission wins over units_map (Gitea: units_map only counts below admin).
    expect(created.body.permission).toBe('admin');
    const id: number = created.body.id;
    const name = uniqueName('renamed');
    const edited = await client.teams.orgEditTeam(id, {
      name, description: 'the builders', permission: 'write', units_map: { 'repo.code': 'write', 'repo.issues': 'read' },
    });
    expect(edited.data).toMatchObject({
      id, name, description: 'the builders', permission: 'read',
      units_map: { 'repo.code': 'write', 'repo.issues': 'read' },
    });
    expect([...(edited.data.units ?? [])].sort()).toEqual(['repo.code', 'repo.issues']);
    // units give every listed unit the permission.
    const units = await client.teams.orgEditTeam(id, { name: '', permission: 'write', units: ['repo.code', 'repo.pulls'] });
    expect(units.data).toMatchObject({ name, permission: 'write', units_map: { 'repo.code': 'write', 'repo.pulls': 'write' } });
    expect((await client.teams.orgGetTeam(id)).data.description).toBe('the builders');

    expectApiError(await api.patch(`/teams/${id}`, { basic: owner, body: { units_map: { 'repo.code': 'sudo' } } }), 422);
    expectApiError(await api.patch(`/teams/${id}`, { basic: owner, body: { name: 'Owners' } }), 422, 'team already exists');
    expectApiError(await api.patch(`/teams/${id}`, { basic: outsider, body: { description: 'x' } }), 403);
  });

  it('keeps the Owners team an owner team, and never deletes it', async () => {
    const teams = await api.get(`/orgs/${org}/teams`, { basic: owner });
    const owners = teams.body.find((t: { name: string }) => t.name === 'Owners');
    const edited = await client.teams.orgEditTeam(owners.id, { name: 'Owners', permission: 'read', includes_all_repositories: false });
    expect(edited.data).toMatchObject({ permission: 'owner', includes_all_repositories: true });
    expectApiError(await api.delete(`/teams/${owners.id}`, { basic: owner }), 422, 'the Owners team cannot be deleted');
  });

  it('gets one member (orgListTeamMember) and deletes a team: members in no other team leave the organization', async () => {
    const id = (await client.orgs.orgCreateTeam(org, { name: uniqueName('doomed'), permission: 'read', units: ['repo.code'] })).data.id!;
    expect((await api.put(`/teams/${id}/members/${member.username}`, { basic: owner })).status).toBe(204);
    const one = await client.teams.orgListTeamMember(id, member.username);
    expect(one.data.login).toBe(member.username);
    expectApiError(await api.get(`/teams/${id}/members/${owner.username}`, { basic: owner }), 404);
    expectApiError(await api.get(`/teams/${id}/members/${member.username}`, { basic: outsider }), 403);
    expect((await api.get(`/orgs/${org}/members/${member.username}`, { basic: owner })).status).toBe(204);

    expectApiError(await api.delete(`/teams/${id}`, { basic: member }), 403, 'Must be an organization owner');
    expect((await client.teams.orgDeleteTeam(id)).status).toBe(204);
    expectApiError(await api.get(`/teams/${id}`, { basic: owner }), 404);
    expect((await api.get(`/orgs/${org}/members/${member.username}`, { basic: owner })).status).toBe(404);
  });
});

describe('team repositories', () => {
  it('a repository given to a write team lets its member push; taking it away takes the access away', async () => {
    const team = (await client.orgs.orgCreateTeam(org, { name: uniqueName('writers'), permission: 'write', units: ['repo.code'] })).data;
    const id = team.id!;
    expect((await api.put(`/teams/${id}/members/${member.username}`, { basic: owner })).status).toBe(204);
    // Before: the private repository does not exist for the member.
    expect((await api.get(`/repos/${org}/${repo}`, { basic: member })).status).toBe(404);
    expect((await client.teams.orgListTeamRepos(id)).data).toEqual([]);
    expectApiError(await api.get(`/teams/${id}/repos/${org}/${repo}`, { basic: owner }), 404);

    // Only repository admins may give it; the member (no access yet) sees a 404 from the repository lookup.
    expectApiError(await api.put(`/teams/${id}/repos/${org}/${repo}`, { basic: member }), 404);
    expect((await client.teams.orgAddTeamRepository(id, org, repo)).status).toBe(204);
    expect((await client.teams.orgAddTeamRepository(id, org, repo)).status).toBe(204); // idempotent
    const listed = await client.teams.orgListTeamRepos(id);
    expect(listed.data.map((r) => r.full_name)).toEqual([`${org}/${repo}`]);
    expect(listed.headers.get('x-total-count')).toBe('1');
    expect((await client.teams.orgListTeamRepo(id, org, repo)).data.name).toBe(repo);

    const seen = await api.get(`/repos/${org}/${repo}`, { basic: member });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.permissions).toMatchObject({ admin: false, push: true, pull: true });
    // A writer, not an admin: cannot give the repository to teams.
    expectApiError(await api.delete(`/teams/${id}/repos/${org}/${repo}`, { basic: member }), 403, 'Must have admin-level access to the repository');

    const url = httpCloneUrl(suite.baseUrl, org, repo, { username: member.username, secret: member.password });
    const dir = ws.dir('clone');
    await git.ok(['clone', '-q', url, dir]);
    const sha = await commitAll(git, dir, { 'team.txt': 'pushed by a team member\n' }, 'team push');
    const pushed = await git.try(['push', '-q', 'origin', 'HEAD:refs/heads/team-branch'], { cwd: dir });
    expect(pushed.code, redact(pushed.stderr)).toBe(0);
    const branch = await api.get(`/repos/${org}/${repo}/branches/team-branch`, { basic: owner });
    expect(branch.body.commit.id).toBe(sha);

    expect((await client.teams.orgRemoveTeamRepository(id, org, repo)).status).toBe(204);
    expect((await api.get(`/repos/${org}/${repo}`, { basic: member })).status).toBe(404);
    const refused = await git.try(['push', '-q', 'origin', 'HEAD:refs/heads/team-branch-2'], { cwd: dir });
    expect(refused.code).not.toBe(0);
  }, 60_000);

  it('a team that includes all repositories lists them all; another organization\'s name is a 404', async () => {
    const all = (await client.orgs.orgCreateTeam(org, {
      name: uniqueName('all'), permission: 'read', units: ['repo.code'], includes_all_repositories: true,
    })).data;
    const listed = await client.teams.orgListTeamRepos(all.id!);
    expect(listed.data.map((r) => r.name)).toContain(repo);
    expect((await client.teams.orgListTeamRepo(all.id!, org, repo)).status).toBe(200);
    expectApiError(await api.get(`/teams/${all.id}/repos/${uniqueName('other')}/${repo}`, { basic: owner }), 404);
    expectApiError(await api.get(`/teams/${all.id}/repos`, { basic: outsider }), 403);
  });
});
