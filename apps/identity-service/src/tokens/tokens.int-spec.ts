import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, IdentityEvents, type ActorDto } from '@cairn/contracts';
import { OutboxRelay } from '@cairn/platform';
import { actorOf, startIdentityTestEnv, type IdentityTestEnv } from '../../test/identity-test-env.js';
import { AuthService } from '../auth/auth.service.js';
import { TokenUsage } from './token-usage.js';
import { TokensRepository } from './tokens.repository.js';
import { TokensService } from './tokens.service.js';

describe('access tokens and token authentication (integration)', () => {
  let env: IdentityTestEnv;
  let tokens: TokensService;
  let auth: AuthService;
  let usage: TokenUsage;
  let admin: ActorDto;
  let alice: ActorDto;
  let bob: ActorDto;

  const lastUsed = async (id: number): Promise<Date | null> =>
    (await env.sql.query('SELECT last_used_at FROM identity.access_tokens WHERE id = $1', [id])).rows[0]?.last_used_at ?? null;

  beforeAll(async () => {
    env = await startIdentityTestEnv(); // TOKEN_LAST_USED_UPDATE_INTERVAL: default 1m
    tokens = env.get(TokensService);
    auth = env.get(AuthService);
    usage = env.get(TokenUsage);
    admin = actorOf(await env.createUser('root', { admin: true }));
    alice = actorOf(await env.createUser('alice'));
    bob = actorOf(await env.createUser('bob'));
  });
  afterAll(async () => {
    await env?.close();
  });

  it('creates a token shown once, resolves it, and records last_used_at once per window', async () => {
    const created = await tokens.create(alice, 'alice', { name: 'ci', scopes: ['write:repository', 'read:user'] });
    expect(created).toMatchObject({ name: 'ci', scopes: ['write:repository', 'read:user'], last_used_at: null });
    expect(created.sha1).toMatch(/^cairn_[0-9A-Za-z]{46}$/);
    expect(created.token_last_eight).toBe(created.sha1.slice(-8));
    expect(created.created_at).toMatch(/Z$/);
    const stored = await env.sql.query('SELECT token_hash FROM identity.access_tokens WHERE id = $1', [created.id]);
    expect(stored.rows[0].token_hash).not.toContain(created.sha1);

    const listed = await tokens.list(alice, 'alice', {});
    expect(listed.items.find((t) => t.id === created.id)).toMatchObject({ sha1: '', last_used_at: null });
    expect(await lastUsed(created.id)).toBeNull();

    const writesBefore = usage.recorder.writes;
    const reply = await auth.resolve({ kind: 'token', secret: created.sha1 });
    expect(reply.actor).toEqual({
      id: alice.id, login: 'alice', isAdmin: false, scopes: ['write:repository', 'read:user'], hasTwoFactor: false,
      via: 'token', tokenId: created.id,
    });
    expect(reply.user).toMatchObject({ login: 'alice', email: 'alice@example.com' });
    await usage.recorder.settle();
    expect(usage.recorder.writes).toBe(writesBefore + 1);
    const first = await lastUsed(created.id);
    expect(first).toBeInstanceOf(Date);
    expect((await tokens.list(alice, 'alice', {})).items.find((t) => t.id === created.id)?.last_used_at).not.toBeNull();

    // Inside the window: no database write at all, and the timestamp stays.
    await auth.resolve({ kind: 'token', secret: created.sha1 });
    await auth.resolve({ kind: 'password', username: 'anything', secret: created.sha1 }); // token as Basic password
    await usage.recorder.settle();
    expect(usage.recorder.writes).toBe(writesBefore + 1);
    expect(await lastUsed(created.id)).toEqual(first);

    // Another replica whose in-memory window has passed still cannot write twice: the UPDATE is conditional.
    env.clock.advance(61_000);
    await auth.resolve({ kind: 'token', secret: created.sha1 });
    await usage.recorder.settle();
    expect(usage.recorder.writes).toBe(writesBefore + 2);
    expect(await lastUsed(created.id)).toEqual(first);
    const repo = env.get(TokensRepository);
    expect(await repo.touch(created.id, 60_000)).toBe(false);
    expect(await repo.touch(created.id, 0)).toBe(true);
    expect((await lastUsed(created.id))!.getTime()).toBeGreaterThan(first!.getTime());
  });

  it('rejects unknown and malformed tokens', async () => {
    const valid = await tokens.create(alice, 'alice', { name: 'throwaway', scopes: ['all'] });
    const forged = `${valid.sha1.slice(0, 20)}${valid.sha1[20] === 'A' ? 'B' : 'A'}${valid.sha1.slice(21)}`;
    for (const secret of [forged, 'cairn_short', '0123456789abcdef0123456789abcdef01234567', '']) {
      await expect(auth.resolve({ kind: 'token', secret })).rejects.toMatchObject({
        code: ErrorCode.UNAUTHENTICATED,
        message: 'invalid token',
      });
    }
  });

  it('validates names and scopes', async () => {
    await tokens.create(alice, 'alice', { name: 'dup', scopes: ['all'] });
    await expect(tokens.create(alice, 'alice', { name: 'dup', scopes: ['all'] })).rejects.toMatchObject({
      code: ErrorCode.INVALID_ARGUMENT,
      message: 'access token name has been used already',
    });
    await expect(tokens.create(alice, 'alice', { name: 'noscope', scopes: [] })).rejects.toMatchObject({
      code: ErrorCode.INVALID_ARGUMENT,
      message: 'access token must have a scope',
    });
    await expect(tokens.create(alice, 'alice', { name: 'bad', scopes: ['read:nothing'] })).rejects.toMatchObject({
      code: ErrorCode.INVALID_ARGUMENT,
      message: 'invalid access token scope: read:nothing',
    });
    // Another user may reuse the name.
    await expect(tokens.create(bob, 'bob', { name: 'dup', scopes: ['all'] })).resolves.toMatchObject({ name: 'dup' });
  });

  it("forbids managing another user's tokens unless site admin; unknown users are NOT_FOUND", async () => {
    const forbidden = { code: ErrorCode.PERMISSION_DENIED, message: 'doer should be the site admin or be same as the contextUser' };
    await expect(tokens.create(bob, 'alice', { name: 'x', scopes: ['all'] })).rejects.toMatchObject(forbidden);
    await expect(tokens.list(bob, 'alice', {})).rejects.toMatchObject(forbidden);
    await expect(tokens.delete(bob, 'alice', 'ci')).rejects.toMatchObject(forbidden);
    await expect(tokens.list(bob, 'nobody', {})).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    const byAdmin = await tokens.create(admin, 'alice', { name: 'made-by-admin', scopes: ['read:user'] });
    expect((await auth.resolve({ kind: 'token', secret: byAdmin.sha1 })).actor.login).toBe('alice');
    expect((await tokens.list(admin, 'alice', {})).total).toBeGreaterThanOrEqual(3);
  });

  it('deletes by id or by name; a deleted token no longer resolves and its revocation is published', async () => {
    const a = await tokens.create(bob, 'bob', { name: 'by-id', scopes: ['all'] });
    const b = await tokens.create(bob, 'bob', { name: 'by-name', scopes: ['all'] });
    await tokens.delete(bob, 'bob', String(a.id));
    await tokens.delete(admin, 'bob', 'by-name');
    for (const t of [a, b]) {
      await expect(auth.resolve({ kind: 'token', secret: t.sha1 })).rejects.toMatchObject({ code: ErrorCode.UNAUTHENTICATED });
    }
    await expect(tokens.delete(bob, 'bob', String(a.id))).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(tokens.delete(bob, 'bob', 'no-such-token')).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    // Another user's token id is not found through this user.
    const alices = await tokens.create(alice, 'alice', { name: 'alices', scopes: ['all'] });
    await expect(tokens.delete(bob, 'bob', String(alices.id))).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });

    await env.get(OutboxRelay).flush();
    const { rows } = await env.sql.query(
      `SELECT payload, published_at FROM identity.outbox_events WHERE subject = $1 ORDER BY created_at`,
      [IdentityEvents.tokenRevoked],
    );
    expect(rows.map((r) => r.payload.data.tokenId)).toEqual([a.id, b.id]);
    expect(rows.every((r) => r.published_at !== null)).toBe(true);
  });

  it('resolves passwords, e-mails as login, sudo for admins only', async () => {
    const byPassword = await auth.resolve({ kind: 'password', username: 'alice', secret: 'password123' });
    expect(byPassword.actor).toMatchObject({ login: 'alice', scopes: ['all'], via: 'password' });
    expect(byPassword.mustChangePassword).toBe(false);
    await expect(auth.resolve({ kind: 'password', username: 'alice@example.com', secret: 'password123' })).resolves.toBeTruthy();
    await expect(auth.resolve({ kind: 'password', username: 'alice', secret: 'nope' })).rejects.toMatchObject({
      code: ErrorCode.UNAUTHENTICATED,
    });
    await expect(auth.resolve({ kind: 'password', username: 'ghost', secret: 'password123' })).rejects.toMatchObject({
      code: ErrorCode.UNAUTHENTICATED,
    });
    // The gateway took a 40-hex password for a token: fall back to the password, as Gitea does.
    const hexPassword = 'abcdef0123456789abcdef0123456789abcdef01';
    await env.createUser('hexy', { password: hexPassword });
    await expect(auth.resolve({ kind: 'token', username: 'hexy', secret: hexPassword })).resolves.toMatchObject({
      actor: { login: 'hexy' },
    });

    const sudo = await auth.resolve({ kind: 'password', username: 'root', secret: 'password123', sudo: 'bob' });
    expect(sudo.actor).toMatchObject({ id: bob.id, login: 'bob', isAdmin: false });
    expect(sudo.user.login).toBe('bob');
    await expect(auth.resolve({ kind: 'password', username: 'alice', secret: 'password123', sudo: 'bob' })).rejects.toMatchObject({
      code: ErrorCode.PERMISSION_DENIED,
      message: 'Only administrators allowed to sudo.',
    });
    await expect(auth.resolve({ kind: 'password', username: 'root', secret: 'password123', sudo: 'ghost' })).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
  });

  it('refuses prohibited and inactive users with any credential', async () => {
    const carol = actorOf(await env.createUser('carol'));
    const t = await tokens.create(carol, 'carol', { name: 't', scopes: ['all'] });
    await env.sql.query('UPDATE identity.users SET prohibit_login = true WHERE id = $1', [carol.id]);
    await expect(auth.resolve({ kind: 'token', secret: t.sha1 })).rejects.toMatchObject({ code: ErrorCode.UNAUTHENTICATED });
    await expect(auth.resolve({ kind: 'password', username: 'carol', secret: 'password123' })).rejects.toMatchObject({
      code: ErrorCode.UNAUTHENTICATED,
    });
    await env.sql.query('UPDATE identity.users SET prohibit_login = false, is_active = false WHERE id = $1', [carol.id]);
    await expect(auth.resolve({ kind: 'token', secret: t.sha1 })).rejects.toMatchObject({ code: ErrorCode.UNAUTHENTICATED });
  });
});
