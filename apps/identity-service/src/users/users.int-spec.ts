import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, IdentityEvents, type ActorDto } from '@cairn/contracts';
import { actorOf, startIdentityTestEnv, type IdentityTestEnv } from '../../test/identity-test-env.js';
import { OrgsService } from '../orgs/orgs.service.js';
import { UsersService } from './users.service.js';

describe('users (integration)', () => {
  let env: IdentityTestEnv;
  let users: UsersService;
  let admin: ActorDto;

  beforeAll(async () => {
    env = await startIdentityTestEnv();
    users = env.get(UsersService);
    admin = actorOf(await env.createUser('root', { admin: true }));
  });
  afterAll(async () => {
    await env?.close();
  });

  const body = (username: string, extra = {}) => ({
    username,
    email: `${username.toLowerCase()}@example.com`,
    password: 'password123',
    ...extra,
  });

  it('creates a user as an admin, Gitea-shaped, password hashed, event in the outbox', async () => {
    const u = await users.create(admin, body('alice', { full_name: 'Alice A.' }));
    expect(u).toMatchObject({
      login: 'alice',
      username: 'alice',
      full_name: 'Alice A.',
      email: 'alice@example.com',
      html_url: 'http://cairn.test:3000/alice',
      is_admin: false,
      active: true,
      visibility: 'public',
    });
    expect(u.avatar_url).toMatch(/^http:\/\/cairn\.test:3000\/avatars\/[0-9a-f]{32}$/);
    expect(u.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const { rows } = await env.sql.query('SELECT password_hash, must_change_password FROM identity.users WHERE id = $1', [u.id]);
    expect(rows[0].password_hash).toMatch(/^scrypt\$/);
    expect(rows[0].must_change_password).toBe(true); // Gitea's default for admin-created users
    const events = await env.sql.query(`SELECT payload FROM identity.outbox_events WHERE subject = $1`, [IdentityEvents.userCreated]);
    expect(events.rows.map((r) => r.payload.data.login)).toContain('alice');
  });

  it('refuses non-admins', async () => {
    const bob = actorOf(await env.createUser('bob'));
    await expect(users.create(bob, body('carol'))).rejects.toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
  });

  it('refuses duplicate names case-insensitively, across users and organizations, and duplicate e-mails', async () => {
    await expect(users.create(admin, body('ALICE', { email: 'other@example.com' }))).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: 'user already exists',
    });
    await env.get(OrgsService).create(admin, { username: 'acme' });
    await expect(users.create(admin, body('Acme'))).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: 'user already exists',
    });
    await expect(users.create(admin, body('alice2', { email: 'ALICE@example.com' }))).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: 'e-mail already in use',
    });
  });

  it('refuses bad and reserved names', async () => {
    for (const name of ['-bad', 'bad..name', 'has space', 'admin', 'x'.repeat(41)]) {
      await expect(users.create(admin, body(name, { email: `${Math.random()}@example.com` }))).rejects.toMatchObject({
        code: ErrorCode.UNPROCESSABLE,
      });
    }
  });

  it('edits with PATCH semantics', async () => {
    const before = await users.create(admin, body('dave', { full_name: 'Dave', must_change_password: false }));
    const after = await users.edit(admin, 'DAVE', { location: 'Berlin' });
    expect(after).toMatchObject({ id: before.id, full_name: 'Dave', location: 'Berlin', email: 'dave@example.com' });
    const again = await users.edit(admin, 'dave', { email: 'dave2@example.com', prohibit_login: true });
    expect(again).toMatchObject({ location: 'Berlin', email: 'dave2@example.com', prohibit_login: true });
    await expect(users.edit(admin, 'dave', { email: 'alice@example.com' })).rejects.toMatchObject({
      message: 'e-mail already in use',
    });
    await expect(users.edit(admin, 'nobody', { location: 'x' })).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });

  it('hides private users from strangers and e-mails from non-admins', async () => {
    const eve = await users.create(admin, body('eve', { visibility: 'private' }));
    const frank = actorOf(await env.createUser('frank'));
    await expect(users.get(null, 'eve')).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(users.get(frank, 'eve')).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect((await users.get(actorOf(eve), 'eve')).email).toBe('eve@example.com');
    expect((await users.get(admin, 'eve')).email).toBe('eve@example.com');
    const seenByFrank = await users.get(frank, 'alice');
    expect(seenByFrank.email).toBe('alice@noreply.cairn.test');
    expect(seenByFrank.is_admin).toBe(false);
    expect((await users.get(null, 'frank')).email).not.toContain('example.com');
  });

  it('searches with visibility rules and pagination', async () => {
    const anon = await users.search(null, { q: 'e' });
    expect(anon.items.map((u) => u.login)).not.toContain('eve');
    const asAdmin = await users.search(admin, { q: 'e' });
    expect(asAdmin.items.map((u) => u.login)).toContain('eve');
    const page = await users.search(admin, { limit: 2, page: 1 });
    expect(page.items).toHaveLength(2);
    expect(page.total).toBeGreaterThan(2);
    expect(page.items.map((u) => u.login)).not.toContain('acme'); // organizations are not users
    const byId = await users.search(null, { uid: page.items[0].id });
    expect(byId.items.map((u) => u.id)).toEqual([page.items[0].id]);
  });

  it('looks users up by ids, e-mails and logins, and resolves owners', async () => {
    const reply = await users.lookup({ emails: ['ALICE@example.com'], logins: ['frank'] });
    expect(reply.users.map((u) => u.login).sort()).toEqual(['alice', 'frank']);
    expect(Object.keys(reply.byEmail)).toEqual(['alice@example.com']);
    await expect(users.resolveOwner('ACME')).resolves.toMatchObject({ login: 'acme', kind: 'organization' });
    await expect(users.resolveOwner('alice')).resolves.toMatchObject({ login: 'alice', kind: 'user' });
    await expect(users.resolveOwner('ghost-owner')).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });

  it('deletes users, but not the sole owner of an organization, nor one who owns repositories, nor oneself', async () => {
    const none = async () => 0;
    const gina = actorOf(await env.createUser('gina'));
    await env.get(OrgsService).create(gina, { username: 'ginaorg' });
    await expect(users.delete(admin, 'gina', none)).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: 'user still has ownership of organizations',
    });
    await expect(users.delete(admin, 'root', none)).rejects.toMatchObject({ code: ErrorCode.UNPROCESSABLE });
    await expect(users.delete(admin, 'acme', none)).rejects.toMatchObject({ code: ErrorCode.UNPROCESSABLE });
    const dave = await users.get(admin, 'dave');
    const asked: number[] = [];
    await expect(users.delete(admin, 'dave', async (id) => (asked.push(id), 2))).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: 'user "dave" still owns repositories: delete or transfer them first',
    });
    expect(asked).toEqual([dave.id]);
    await users.delete(admin, 'dave', none);
    await expect(users.get(admin, 'dave')).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(users.delete(admin, 'dave', none)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    const events = await env.sql.query(`SELECT 1 FROM identity.outbox_events WHERE subject = $1`, [IdentityEvents.userDeleted]);
    expect(events.rowCount).toBe(1);
  });
});
