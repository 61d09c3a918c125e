/**
 * `DELETE /orgs/{org}` (Gitea's `orgDelete`) through the gateway: organization owners and site admins only (members
 * and strangers of a visible organization 403, a hidden one 404, a read token 403), refused while the organization
 * owns a repository (422; after the repository is deleted it works), then 404. The deletion cascades through the one
 * event `identity.evt.user.deleted` (`kind: 'organization'`): the organization's Actions runners, registration
 * tokens, variables and secrets (runners-service, once per event) and its hooks (hooks-service) go, its teams and
 * memberships with it; what other owners have stays.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityEvents } from '@cairn/contracts';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { insertRunner } from '../support/runners.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { expectApiError } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
let db: pg.Client;
let admin: Account;
/** Owns the organizations. */
let alice: Account;
/** A member (not owner) of the organization. */
let bob: Account;
/** No member. */
let carol: Account;

const hookBody = { type: 'gitea', active: false, config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' } };

beforeAll(async () => {
  suite = await sharedTestSuite();
  api = http(suite);
  db = new pg.Client({ connectionString: suite.databaseUrl });
  await db.connect();
  admin = await suite.createAdmin();
  alice = await createUser(suite, admin, uniqueName('alice'));
  bob = await createUser(suite, admin, uniqueName('bob'));
  carol = await createUser(suite, admin, uniqueName('carol'));
}, 300_000);

afterAll(async () => {
  await db?.end();
  await suite?.stop();
});

/** Creates an organization of alice's with a team holding bob; answers its id and the team's. */
async function createOrg(name: string, visibility = 'public'): Promise<{ id: number; teamId: number }> {
  const org = await api.post('/orgs', { basic: alice, body: { username: name, visibility } });
  expect(org.status).toBe(201);
  const team = await api.post(`/orgs/${name}/teams`, { basic: alice, body: { name: 'devs', permission: 'write', units: ['repo.code'] } });
  expect(team.status).toBe(201);
  expect((await api.put(`/teams/${team.body.id}/members/${bob.username}`, { basic: alice })).status).toBe(204);
  return { id: org.body.id, teamId: team.body.id };
}

/** What is left of an owner in the other services' schemas. */
async function ownedRows(ownerId: number) {
  const count = async (sql: string) => Number((await db.query(sql, [ownerId])).rows[0].n);
  return {
    runners: await count('SELECT count(*) AS n FROM runners.runners WHERE owner_id = $1'),
    registrationTokens: await count('SELECT count(*) AS n FROM runners.runner_registration_tokens WHERE owner_id = $1'),
    variables: await count('SELECT count(*) AS n FROM runners.variables WHERE owner_id = $1'),
    secrets: await count('SELECT count(*) AS n FROM runners.secrets WHERE owner_id = $1'),
    hooks: await count('SELECT count(*) AS n FROM hooks.webhooks WHERE owner_id = $1'),
    teams: await count('SELECT count(*) AS n FROM identity.teams WHERE org_id = $1'),
    members: await count('SELECT count(*) AS n FROM identity.org_users WHERE org_id = $1'),
  };
}
const nothing = { runners: 0, registrationTokens: 0, variables: 0, secrets: 0, hooks: 0, teams: 0, members: 0 };

/** Gives an organization one of everything an owner can have in Actions and hooks (as its owner, alice). */
async function furnish(org: string, orgId: number, token: string): Promise<void> {
  expect((await api.put(`/orgs/${org}/actions/secrets/DEPLOY_KEY`, { token, body: { data: 's3cret' } })).status).toBe(201);
  expect((await api.post(`/orgs/${org}/actions/variables/REGION`, { token, body: { value: 'eu' } })).status).toBe(201);
  expect((await api.post(`/orgs/${org}/actions/runners/registration-token`, { token })).status).toBe(200);
  await insertRunner(db, { ownerId: orgId, name: `runner-of-${org}` });
  expect((await api.post(`/orgs/${org}/hooks`, { token, body: hookBody })).status).toBe(201);
}

describe('DELETE /orgs/{org}', () => {
  it('owners only; refused while the organization owns a repository; then 204, 404, and everything it owned is gone', async () => {
    const org = uniqueName('doomed');
    const { id: orgId, teamId } = await createOrg(org);
    const token = await createToken(suite, alice, ['write:organization', 'write:repository']);
    await furnish(org, orgId, token);
    // Another organization of alice's, and alice herself, keep theirs.
    const keep = uniqueName('kept');
    const { id: keptId } = await createOrg(keep);
    await furnish(keep, keptId, token);
    expect((await api.post('/user/actions/variables/MINE', { token: await createToken(suite, alice, ['write:user']), body: { value: 'x' } })).status).toBe(201);
    const aliceId = (await api.get('/user', { basic: alice })).body.id as number;
    expect(await ownedRows(orgId)).toEqual({ runners: 1, registrationTokens: 1, variables: 1, secrets: 1, hooks: 1, teams: 2, members: 2 });
    const repo = uniqueName('repo');
    expect((await api.post(`/orgs/${org}/repos`, { token, body: { name: repo } })).status).toBe(201);

    expectApiError(await api.delete(`/orgs/${org}`), 401);
    expectApiError(await api.delete(`/orgs/${org}`, { basic: bob }), 403, 'Must be an organization owner');
    expectApiError(await api.delete(`/orgs/${org}`, { basic: carol }), 403, 'Must be an organization owner');
    expectApiError(await api.delete(`/orgs/${org}`, { token: await createToken(suite, alice, ['read:organization']) }), 403);
    expectApiError(await api.delete(`/orgs/${org}`, { token: await createToken(suite, alice, ['write:repository']) }), 403);
    expectApiError(await api.delete(`/orgs/${org}`, { token }), 422, /still owns repositories/);
    expect((await api.get(`/orgs/${org}`, { token })).status).toBe(200);

    expect((await api.delete(`/repos/${org}/${repo}`, { token })).status).toBe(204);
    expect((await api.delete(`/orgs/${org}`, { token })).status).toBe(204);
    expectApiError(await api.get(`/orgs/${org}`, { token }), 404);
    expectApiError(await api.delete(`/orgs/${org}`, { token }), 404);
    expectApiError(await api.get(`/teams/${teamId}`, { basic: alice }), 404);
    expectApiError(await api.get(`/orgs/${org}/actions/variables`, { token }), 404);
    // bob is still a user, no longer a member of anything.
    expect((await api.get(`/users/${bob.username}/orgs`, { basic: bob })).body.map((o: { username: string }) => o.username)).toEqual([keep]);

    await waitFor(async () => JSON.stringify(await ownedRows(orgId)) === JSON.stringify(nothing), 'the organization\'s data to go');
    expect(await ownedRows(keptId)).toEqual({ runners: 1, registrationTokens: 1, variables: 1, secrets: 1, hooks: 1, teams: 2, members: 2 });
    expect((await db.query('SELECT count(*) AS n FROM runners.variables WHERE owner_id = $1', [aliceId])).rows[0].n).toBe('1');
    // One event, handled once by runners-service.
    const events = await db.query(
      `SELECT id FROM identity.outbox_events WHERE subject = $1 AND (payload->'data'->>'id')::int = $2`,
      [IdentityEvents.userDeleted, orgId],
    );
    expect(events.rows).toHaveLength(1);
    const consumed = await db.query('SELECT count(*) AS n FROM runners.consumed_events WHERE id = $1', [events.rows[0].id]);
    expect(consumed.rows[0].n).toBe('1');
  });

  it('hides a private organization from strangers (404); a site admin deletes it (204) and its data goes', async () => {
    const org = uniqueName('secret');
    const { id: orgId } = await createOrg(org, 'private');
    await furnish(org, orgId, await createToken(suite, alice, ['write:organization']));
    expectApiError(await api.delete(`/orgs/${org}`, { basic: carol }), 404);
    expectApiError(await api.delete(`/orgs/${org}`, { basic: bob }), 403);
    expectApiError(await api.delete(`/orgs/${uniqueName('nobody')}`, { basic: admin }), 404);
    expectApiError(await api.delete(`/orgs/${carol.username}`, { basic: admin }), 404);
    expect((await api.delete(`/orgs/${org}`, { basic: admin })).status).toBe(204);
    expectApiError(await api.get(`/orgs/${org}`, { basic: admin }), 404);
    await waitFor(async () => JSON.stringify(await ownedRows(orgId)) === JSON.stringify(nothing), 'the organization\'s data to go');
  });
});
