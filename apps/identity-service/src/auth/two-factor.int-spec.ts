import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type ActorDto } from '@cairn/contracts';
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

  it('enrols once, stores the secret encrypted, and then requires a TOTP code with the password', async () => {
    const before = await auth.resolve({ kind: 'password', username: 'alice', secret: 'password123' });
    expect(before.actor.hasTwoFactor).toBe(false);

    const enrolled = await twoFactor.enroll(alice);
    expect(enrolled.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolled.otpauth_url).toContain(`secret=${enrolled.secret}`);
    expect(enrolled.scratch_token).toHaveLength(12);
    const row = (await env.sql.query('SELECT * FROM identity.two_factors WHERE user_id = $1', [alice.id])).rows[0];
    expect(row.secret_encrypted).not.toContain(enrolled.secret);
    expect(row.scratch_token_hash).not.toContain(enrolled.scratch_token);
    await expect(twoFactor.enroll(alice)).rejects.toMatchObject({ code: ErrorCode.UNPROCESSABLE });

    await expect(auth.resolve({ kind: 'password', username: 'alice', secret: 'password123' })).rejects.toMatchObject({
      code: ErrorCode.UNAUTHENTICATED,
      message: 'two-factor authentication code required (X-Gitea-OTP)',
    });
    const secret = base32Decode(enrolled.secret);
    const stale = totp(secret, env.clock.now - 5 * 30_000);
    await expect(auth.resolve({ kind: 'password', username: 'alice', secret: 'password123', otp: stale })).rejects.toMatchObject({
      code: ErrorCode.UNAUTHENTICATED,
    });
    const ok = await auth.resolve({ kind: 'password', username: 'alice', secret: 'password123', otp: totp(secret, env.clock.now) });
    expect(ok.actor).toMatchObject({ login: 'alice', hasTwoFactor: true });
    // One step of clock drift is tolerated.
    const drift = totp(secret, env.clock.now - 30_000);
    await expect(auth.resolve({ kind: 'password', username: 'alice', secret: 'password123', otp: drift })).resolves.toBeTruthy();
    // A wrong password is refused before the code matters.
    await expect(
      auth.resolve({ kind: 'password', username: 'alice', secret: 'wrong', otp: totp(secret, env.clock.now) }),
    ).rejects.toMatchObject({ message: 'invalid username or password' });
  });

  it('does not ask token users for a code', async () => {
    const t = await env.get(TokensService).create(alice, 'alice', { name: 'ci', scopes: ['all'] });
    const reply = await auth.resolve({ kind: 'token', secret: t.sha1 });
    expect(reply.actor).toMatchObject({ login: 'alice', hasTwoFactor: true, via: 'token' });
  });

  it('lets only the user (or an admin) disable it; users enrol only themselves', async () => {
    const bob = actorOf(await env.createUser('bob'));
    const root = actorOf(await env.createUser('root', { admin: true }));
    await expect(twoFactor.enroll(bob, 'alice')).rejects.toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
    await expect(twoFactor.disable(bob, 'alice')).rejects.toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
    await twoFactor.disable(root, 'alice');
    await expect(twoFactor.disable(alice)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    const reply = await auth.resolve({ kind: 'password', username: 'alice', secret: 'password123' });
    expect(reply.actor.hasTwoFactor).toBe(false);
  });
});
