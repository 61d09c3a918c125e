import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, IdentitySubjects, type ActorDto } from '@cairn/contracts';
import { actorOf, startIdentityTestEnv, type IdentityTestEnv } from '../../test/identity-test-env.js';
import { TokensService } from '../tokens/tokens.service.js';
import { AuthService } from './auth.service.js';
import { base32Decode, totp } from './totp.js';
import { TwoFactorService } from './two-factor.service.js';

describe('two-factor authentication (integration)', () => {
  let env: IdentityTestEnv;
  let twoFactor: TwoFactorService;
  let auth: AuthService;
  let alice: ActorDto;

  beforeAll(async () => {
    env = await startIdentityTestEnv({ CAIRN__SECURITY__SECRET_KEY: 'integration-test-secret-key-0123456789' });
    twoFactor = env.get(TwoFactorService);
    auth = env.get(AuthService);
    alice = actorOf(await env.createUser('alice'));
  });
  afterAll(async () => {
    await env?.close();
  });

  it('enrols in two steps, stores the secret encrypted, and then requires a TOTP code with the password', async () => {
    const before = await auth.resolve({ kind: 'password', username: 'alice', secret: 'password123' });
    expect(before.actor.hasTwoFactor).toBe(false);

    // A restarted enrolment replaces the pending secret: only the newest one can be confirmed.
    const first = await twoFactor.enroll(alice);
    const enrolled = await twoFactor.enroll(alice);
    expect(enrolled.secret).not.toBe(first.secret);
    expect(enrolled.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolled.otpauth_url).toContain(`secret=${enrolled.secret}`);
    const pendingRow = (await env.sql.query('SELECT * FROM identity.pending_two_factors WHERE user_id = $1', [alice.id])).rows[0];
    expect(pendingRow.secret_encrypted).not.toContain(enrolled.secret);
    // Pending changes nothing: no code asked at sign-in, not enrolled.
    expect((await auth.resolve({ kind: 'password', username: 'alice', secret: 'password123' })).actor.hasTwoFactor).toBe(false);

    const secret = base32Decode(enrolled.secret);
    await expect(twoFactor.confirm(alice, totp(base32Decode(first.secret), env.clock.now))).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: expect.stringContaining('invalid two-factor authentication code'),
    });
    const { scratch_token } = await twoFactor.confirm(alice, totp(secret, env.clock.now));
    expect(scratch_token).toHaveLength(12);
    const row = (await env.sql.query('SELECT * FROM identity.two_factors WHERE user_id = $1', [alice.id])).rows[0];
    expect(row.secret_encrypted).not.toContain(enrolled.secret);
    expect(row.scratch_token_hash).not.toContain(scratch_token);
    expect((await env.sql.query('SELECT 1 FROM identity.pending_two_factors WHERE user_id = $1', [alice.id])).rowCount).toBe(0);
    await expect(twoFactor.enroll(alice)).rejects.toMatchObject({ code: ErrorCode.UNPROCESSABLE });
    await expect(twoFactor.confirm(alice, totp(secret, env.clock.now))).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: 'two-factor authentication is already enrolled',
    });
    // The confirming code is used up; sign in two steps later (so the previous step is still one nobody used).
    env.clock.advance(2 * 30_000);

    await expect(auth.resolve({ kind: 'password', username: 'alice', secret: 'password123' })).rejects.toMatchObject({
      code: ErrorCode.UNAUTHENTICATED,
      message: 'two-factor authentication code required (X-Gitea-OTP)',
    });
    const stale = totp(secret, env.clock.now - 5 * 30_000);
    await expect(auth.resolve({ kind: 'password', username: 'alice', secret: 'password123', otp: stale })).rejects.toMatchObject({
      code: ErrorCode.UNAUTHENTICATED,
    });
    // One step of clock drift is tolerated.
    const drift = totp(secret, env.clock.now - 30_000);
    await expect(auth.resolve({ kind: 'password', username: 'alice', secret: 'password123', otp: drift })).resolves.toBeTruthy();
    const ok = await auth.resolve({ kind: 'password', username: 'alice', secret: 'password123', otp: totp(secret, env.clock.now) });
    expect(ok.actor).toMatchObject({ login: 'alice', hasTwoFactor: true });
    // A wrong password is refused before the code matters.
    await expect(
      auth.resolve({ kind: 'password', username: 'alice', secret: 'wrong', otp: totp(secret, env.clock.now) }),
    ).rejects.toMatchObject({ message: 'invalid username or password' });
  });

  it('accepts each code once: a replay, an older code, or a concurrent second use is refused (issue 9, item 6)', async () => {
    const carol = actorOf(await env.createUser('carol'));
    const secret = base32Decode((await twoFactor.enroll(carol)).secret);
    await twoFactor.confirm(carol, totp(secret, env.clock.now));
    env.clock.advance(30_000);
    const signIn = (otp: string) =>
      env.rpc.send(IdentitySubjects.authResolve, { kind: 'password', username: 'carol', secret: 'password123', otp });
    const now = totp(secret, env.clock.now);
    expect((await signIn(now)).actor.login).toBe('carol');
    const replayed = { code: ErrorCode.UNAUTHENTICATED, message: 'invalid (or already used) two-factor authentication code (X-Gitea-OTP)' };
    await expect(signIn(now)).rejects.toMatchObject(replayed);
    // The previous step's code was never used, but it is older than the one accepted.
    await expect(signIn(totp(secret, env.clock.now - 30_000))).rejects.toMatchObject(replayed);
    const row = (await env.sql.query('SELECT last_used_step FROM identity.two_factors WHERE user_id = $1', [carol.id])).rows[0];
    expect(row.last_used_step).toBe(Math.floor(env.clock.now / 30_000));

    // The next step: five simultaneous uses of its code, exactly one wins.
    env.clock.advance(30_000);
    const next = totp(secret, env.clock.now);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => signIn(next)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected')) {
      expect((r as PromiseRejectedResult).reason).toMatchObject(replayed);
    }
  });

  it('does not ask token users for a code', async () => {
    const t = await env.get(TokensService).create(alice, 'alice', { name: 'ci', scopes: ['all'] });
    const reply = await auth.resolve({ kind: 'token', secret: t.sha1 });
    expect(reply.actor).toMatchObject({ login: 'alice', hasTwoFactor: true, via: 'token' });
  });

  it('names the administrator behind Sudo, with their own two-factor state', async () => {
    await env.createUser('sudoer', { admin: true });
    const reply = await auth.resolve({ kind: 'password', username: 'sudoer', secret: 'password123', sudo: 'alice' });
    expect(reply.actor).toMatchObject({ login: 'alice', hasTwoFactor: true });
    expect(reply.sudoer).toMatchObject({ login: 'sudoer', hasTwoFactor: false });
    expect((await auth.resolve({ kind: 'password', username: 'sudoer', secret: 'password123' })).sudoer).toBeUndefined();
  });

  it('lets only the user (or an admin) disable it; users enrol only themselves', async () => {
    const bob = actorOf(await env.createUser('bob'));
    const root = actorOf(await env.createUser('root', { admin: true }));
    await expect(twoFactor.enroll(bob, 'alice')).rejects.toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
    await expect(twoFactor.disable(bob, 'alice')).rejects.toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
    await twoFactor.disable(root, 'alice');
    await expect(twoFactor.disable(alice)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    // A pending enrolment can be removed too; nothing is left to confirm.
    const pending = await twoFactor.enroll(bob);
    await twoFactor.disable(bob);
    await expect(twoFactor.confirm(bob, totp(base32Decode(pending.secret), env.clock.now))).rejects.toMatchObject({
      message: expect.stringContaining('no two-factor enrolment to confirm'),
    });
    const reply = await auth.resolve({ kind: 'password', username: 'alice', secret: 'password123' });
    expect(reply.actor.hasTwoFactor).toBe(false);
  });
  it('disables with a code only when the code is a current, unused one of the enrolment (the web settings page)', async () => {
    const dana = actorOf(await env.createUser('dana'));
    const secret = base32Decode((await twoFactor.enroll(dana)).secret);
    await twoFactor.confirm(dana, totp(secret, env.clock.now));
    env.clock.advance(2 * 30_000);
    await expect(twoFactor.disable(dana, undefined, '000000' === totp(secret, env.clock.now) ? '111111' : '000000')).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: expect.stringContaining('invalid two-factor authentication code'),
    });
    expect((await env.sql.query('SELECT 1 FROM identity.two_factors WHERE user_id = $1', [dana.id])).rowCount).toBe(1);
    await twoFactor.disable(dana, undefined, ` ${totp(secret, env.clock.now)} `);
    expect((await env.sql.query('SELECT 1 FROM identity.two_factors WHERE user_id = $1', [dana.id])).rowCount).toBe(0);
  });
});
