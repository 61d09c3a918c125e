import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorCode, IdentitySubjects, healthSubject,
  type ResolveCredentialsRequest, type UserDto,
} from '@cairn/contracts';
import { actorOf, startIdentityTestEnv, type IdentityTestEnv } from '../test/identity-test-env.js';
import { withLastCharChanged } from '../../../test/support/session.js';
import { base32Decode, totp } from './auth/totp.js';

/** The message handlers over a real NATS connection: validation, error envelopes, replies. */
describe('identity-service over NATS (integration)', () => {
  let env: IdentityTestEnv;
  let root: UserDto;

  beforeAll(async () => {
    env = await startIdentityTestEnv();
    root = await env.createUser('root', { admin: true });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('answers the health check', async () => {
    const reply = await env.rpc.send(healthSubject('identity'), {});
    expect(reply).toMatchObject({ service: 'identity', ok: true, checks: { nats: true, postgres: true } });
  });

  it('creates a user, a token, and resolves it', async () => {
    const admin = actorOf(root);
    const user = await env.rpc.send(IdentitySubjects.userCreate, {
      actor: admin,
      body: { username: 'alice', email: 'alice@example.com', password: 'password123', must_change_password: false },
    });
    expect(user.login).toBe('alice');
    const token = await env.rpc.send(IdentitySubjects.tokenCreate, {
      actor: actorOf(user),
      username: 'alice',
      body: { name: 'cli', scopes: ['read:user'] },
    });
    const resolved = await env.rpc.send(IdentitySubjects.authResolve, {
      kind: 'token',
      secret: token.sha1,
    });
    expect(resolved.actor).toMatchObject({ login: 'alice', scopes: ['read:user'], via: 'token', tokenId: token.id });
    expect(resolved.user.login).toBe('alice');
    await expect(
      env.rpc.send(IdentitySubjects.authResolve, { kind: 'token', secret: withLastCharChanged(token.sha1) }),
    ).rejects.toMatchObject({ code: ErrorCode.UNAUTHENTICATED, message: 'invalid token' });
    const deleted = await env.rpc.send(IdentitySubjects.tokenDelete, { actor: actorOf(user), username: 'alice', token: 'cli' });
    expect(deleted).toEqual({ ok: true });
  });

  it('validates messages (INVALID_ARGUMENT) and maps domain errors to their codes', async () => {
    // Deliberately invalid: an unknown credential kind.
    await expect(env.rpc.send(IdentitySubjects.authResolve, { kind: 'magic', secret: 'x' } as unknown as ResolveCredentialsRequest)).rejects.toMatchObject({
      code: ErrorCode.INVALID_ARGUMENT,
    });
    await expect(
      env.rpc.send(IdentitySubjects.userCreate, { actor: actorOf(root), body: { username: 'bob', email: 'nope', password: 'x' } }),
    ).rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT, details: [expect.stringContaining('body.email')] });
    await expect(
      env.rpc.send(IdentitySubjects.userCreate, { actor: null, body: { username: 'bob', email: 'b@example.com', password: 'x' } }),
    ).rejects.toMatchObject({ code: ErrorCode.UNAUTHENTICATED });
    await expect(env.rpc.send(IdentitySubjects.userGet, { actor: null, username: 'ghost' })).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
  });

  it('replies plain booleans for membership checks', async () => {
    const alice = await env.rpc.send(IdentitySubjects.userGet, { actor: null, username: 'alice' });
    await env.rpc.send(IdentitySubjects.orgCreate, { actor: actorOf(root), body: { username: 'acme' } });
    expect(await env.rpc.send(IdentitySubjects.memberCheck, { actor: actorOf(root), org: 'acme', username: 'root' })).toBe(true);
    expect(await env.rpc.send(IdentitySubjects.memberCheck, { actor: null, org: 'acme', username: 'alice' })).toBe(false);
    expect(await env.rpc.send(IdentitySubjects.publicMemberCheck, { actor: null, org: 'acme', username: 'root' })).toBe(false);
    await env.rpc.send(IdentitySubjects.publicMemberSet, { actor: actorOf(root), org: 'acme', username: 'root', public: true });
    expect(await env.rpc.send(IdentitySubjects.publicMemberCheck, { actor: null, org: 'acme', username: 'root' })).toBe(true);
    await expect(
      env.rpc.send(IdentitySubjects.publicMemberSet, { actor: actorOf(alice), org: 'acme', username: 'root', public: false }),
    ).rejects.toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
  });

  it('enrols two-factor over NATS', async () => {
    const alice = await env.rpc.send(IdentitySubjects.userGet, { actor: null, username: 'alice' });
    const reply = await env.rpc.send(IdentitySubjects.twoFactorEnroll, { actor: actorOf(alice) });
    expect(reply.secret).toMatch(/^[A-Z2-7]+$/);
    const passcode = totp(base32Decode(reply.secret), env.clock.now);
    const confirmed = await env.rpc.send(IdentitySubjects.twoFactorConfirm, {
      actor: actorOf(alice),
      passcode,
    });
    expect(confirmed.scratch_token).toHaveLength(12);
    await expect(
      env.rpc.send(IdentitySubjects.authResolve, { kind: 'password', username: 'alice', secret: 'password123' }),
    ).rejects.toMatchObject({ code: ErrorCode.UNAUTHENTICATED, message: 'two-factor authentication code required (X-Gitea-OTP)' });
    await env.rpc.send(IdentitySubjects.twoFactorDisable, { actor: actorOf(alice) });
  });
});
