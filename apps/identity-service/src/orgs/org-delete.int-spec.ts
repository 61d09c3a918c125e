import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, IdentityEvents, type ActorDto } from '@cairn/contracts';
import { actorOf, startIdentityTestEnv, type IdentityTestEnv } from '../../test/identity-test-env.js';
import { OrgsService } from './orgs.service.js';

describe('organization deletion (integration)', () => {
  let env: IdentityTestEnv;
  let orgs: OrgsService;
  let admin: ActorDto;
  let owner: ActorDto;
  let member: ActorDto;
  let stranger: ActorDto;
  const noRepositories = async () => 0;

  const rowsOf = async (orgId: number) => {
    const q = async (sql: string) => Number((await env.sql.query(sql, [orgId])).rows[0].n);
    return {
      users: await q('SELECT count(*) AS n FROM identity.users WHERE id = $1'),
      teams: await q('SELECT count(*) AS n FROM identity.teams WHERE org_id = $1'),
      teamUsers: await q('SELECT count(*) AS n FROM identity.team_users WHERE org_id = $1'),
      orgUsers: await q('SELECT count(*) AS n FROM identity.org_users WHERE org_id = $1'),
    };
  };
  const deletionEvents = async (orgId: number) =>
    (
      await env.sql.query(
        `SELECT payload FROM identity.outbox_events WHERE subject = $1 AND (payload->'data'->>'id')::int = $2`,
        [IdentityEvents.userDeleted, orgId],
      )
    ).rows.map((r) => (r.payload as { data: unknown }).data);

  beforeAll(async () => {
    env = await startIdentityTestEnv();
    orgs = env.get(OrgsService);
    admin = actorOf(await env.createUser('root', { admin: true }));
    owner = actorOf(await env.createUser('olga'));
    member = actorOf(await env.createUser('mike'));
    stranger = actorOf(await env.createUser('sam'));
  });
  afterAll(async () => {
    await env?.close();
  });

  it('lets only owners delete, hides a private organization from strangers, refuses while it owns repositories', async () => {
    const org = await orgs.create(owner, { username: 'hidden', visibility: 'private' });
    const team = await orgs.createTeam(owner, 'hidden', { name: 'devs', permission: 'write' });
    await orgs.addTeamMember(owner, team.id, 'mike');

    await expect(orgs.delete(stranger, 'hidden', noRepositories)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(orgs.delete(member, 'hidden', noRepositories)).rejects.toMatchObject({
      code: ErrorCode.PERMISSION_DENIED,
      message: 'Must be an organization owner',
    });
    const asked: number[] = [];
    await expect(
      orgs.delete(owner, 'hidden', async (id) => {
        asked.push(id);
        return 2;
      }),
    ).rejects.toMatchObject({ code: ErrorCode.UNPROCESSABLE, message: expect.stringContaining('still owns repositories') });
    expect(asked).toEqual([org.id]);
    expect(await rowsOf(org.id)).toEqual({ users: 1, teams: 2, teamUsers: 2, orgUsers: 2 });
    expect(await deletionEvents(org.id)).toEqual([]);
  });

  it('deletes the organization with its teams and memberships and records one deletion event', async () => {
    const org = await orgs.get(owner, 'hidden');
    await orgs.delete(owner, 'HIDDEN', noRepositories);
    expect(await rowsOf(org.id)).toEqual({ users: 0, teams: 0, teamUsers: 0, orgUsers: 0 });
    expect(await deletionEvents(org.id)).toEqual([{ id: org.id, login: 'hidden', kind: 'organization' }]);
    // Its members stay.
    expect(await orgs.standings(member.id)).toEqual([]);
    expect(Number((await env.sql.query('SELECT count(*) AS n FROM identity.users WHERE id = ANY($1)', [[owner.id, member.id]])).rows[0].n)).toBe(2);
    // Gone: a second deletion is NOT_FOUND and records nothing more.
    await expect(orgs.delete(owner, 'hidden', noRepositories)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(await deletionEvents(org.id)).toHaveLength(1);
  });

  it('lets a site admin delete any organization; a stranger of a public one is PERMISSION_DENIED; users are not organizations', async () => {
    const org = await orgs.create(owner, { username: 'open', visibility: 'public' });
    await expect(orgs.delete(stranger, 'open', noRepositories)).rejects.toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
    await expect(orgs.delete(owner, 'sam', noRepositories)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await orgs.delete(admin, 'open', noRepositories);
    expect(await rowsOf(org.id)).toEqual({ users: 0, teams: 0, teamUsers: 0, orgUsers: 0 });
    expect(await deletionEvents(org.id)).toEqual([{ id: org.id, login: 'open', kind: 'organization' }]);
  });
});
