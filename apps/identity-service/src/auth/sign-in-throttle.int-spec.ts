import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError, ErrorCode, IdentitySubjects, type ResolveCredentialsRequest, type UserDto } from '@cairn/contracts';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { actorOf, startIdentityTestEnv, type IdentityTestEnv } from '../../test/identity-test-env.js';
import { IDENTITY_SETTINGS, type IdentitySettings } from '../config/identity-settings.js';
import { SignInThrottle } from '../common/sign-in-throttle.js';
import { base32Decode, totp } from './totp.js';
import { TwoFactorService } from './two-factor.service.js';

/** Through the real `identity.auth.resolve` handler: 3 failures per account, 5 per address in 60 s. */
describe('sign-in throttle (integration)', () => {
  let env: IdentityTestEnv;
  const users = new Map<string, UserDto>();
  const WINDOW_S = 60;

  beforeAll(async () => {
    env = await startIdentityTestEnv({
      CAIRN__SECURITY__SECRET_KEY: 'integration-test-secret-key-0123456789',
      CAIRN__SECURITY__LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
      CAIRN__SECURITY__LOGIN_MAX_FAILURES_PER_ADDRESS: '5',
      CAIRN__SECURITY__LOGIN_FAILURE_WINDOW: `${WINDOW_S}s`,
    });
    for (const name of ['bob', 'carol', 'dave', 'erin', 'frank', 'gina', 'hank']) users.set(name, await env.createUser(name));
  });
  afterAll(async () => {
    await env?.close();
  });

  const signIn = (username: string, secret: string, clientAddress?: string, otp?: string) => {
    const req: ResolveCredentialsRequest = {
      kind: 'password', username, secret, ...(clientAddress ? { clientAddress } : {}), ...(otp ? { otp } : {}),
    };
    return env.rpc.send(IdentitySubjects.authResolve, req);
  };
  const outcome = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (err: DomainError) => err.code,
    );
  async function expectLimited(p: Promise<unknown>, who: 'this account' | 'your address') {
    const err = await p.then(() => null, (e: DomainError) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: ErrorCode.RATE_LIMITED, message: expect.stringContaining(`for ${who}`) });
    expect(err!.retryAfterSeconds).toBeGreaterThan(0);
    expect(err!.retryAfterSeconds).toBeLessThanOrEqual(WINDOW_S);
  }

  it('refuses an account after 3 failures — even with the right password — and says when to retry', async () => {
    for (let i = 0; i < 3; i++) expect(await outcome(signIn('bob', 'wrong', '192.0.2.1'))).toBe(ErrorCode.UNAUTHENTICATED);
    await expectLimited(signIn('bob', 'password123', '192.0.2.1'), 'this account');
    // From any address, and by e-mail too: it is the account that is counted.
    await expectLimited(signIn('bob', 'password123', '192.0.2.2'), 'this account');
    await expectLimited(signIn('bob@example.com', 'password123'), 'this account');
    // Other accounts are not affected.
    expect(await outcome(signIn('carol', 'password123', '192.0.2.1'))).toBe('ok');
  });

  it('refuses a source address after 5 failures on any accounts, known or not; other addresses are not affected', async () => {
    const addr = '198.51.100.9';
    for (const name of ['nobody-1', 'nobody-2', 'dave', 'nobody-3', 'nobody-4']) {
      expect(await outcome(signIn(name, 'wrong', addr))).toBe(ErrorCode.UNAUTHENTICATED);
    }
    await expectLimited(signIn('erin', 'password123', addr), 'your address');
    expect(await outcome(signIn('erin', 'password123', '198.51.100.10'))).toBe('ok');
    expect(await outcome(signIn('dave', 'password123', '198.51.100.10'))).toBe('ok');
  });

  it('forgets an account\'s failures after a successful sign-in, but not the address\'s', async () => {
    const addr = '203.0.113.50';
    for (let i = 0; i < 2; i++) expect(await outcome(signIn('frank', 'wrong', addr))).toBe(ErrorCode.UNAUTHENTICATED);
    expect(await outcome(signIn('frank', 'password123', addr))).toBe('ok');
    // Two more failures are fine for the account (its count restarted)...
    for (let i = 0; i < 2; i++) expect(await outcome(signIn('frank', 'wrong', addr))).toBe(ErrorCode.UNAUTHENTICATED);
    // ...but the address has now failed 4 times: one more failure and it is refused.
    expect(await outcome(signIn('nobody-5', 'wrong', addr))).toBe(ErrorCode.UNAUTHENTICATED);
    await expectLimited(signIn('frank', 'password123', addr), 'your address');
  });

  it('counts concurrent guesses exactly: of 10 simultaneous wrong passwords, 3 are checked and 7 refused', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => outcome(signIn('gina', 'wrong'))));
    expect(results.filter((r) => r === ErrorCode.UNAUTHENTICATED)).toHaveLength(3);
    expect(results.filter((r) => r === ErrorCode.RATE_LIMITED)).toHaveLength(7);
  });

  it('counts wrong two-factor codes, not a right password still waiting for its code', async () => {
    const hank = actorOf(users.get('hank')!);
    const secret = base32Decode((await env.get(TwoFactorService).enroll(hank)).secret);
    await env.get(TwoFactorService).confirm(hank, totp(secret, env.clock.now));
    env.clock.advance(30_000); // the confirming code is used up
    for (let i = 0; i < 5; i++) expect(await outcome(signIn('hank', 'password123'))).toBe(ErrorCode.UNAUTHENTICATED);
    expect(await outcome(signIn('hank', 'password123', undefined, totp(secret, env.clock.now)))).toBe('ok');
    for (let i = 0; i < 3; i++) {
      expect(await outcome(signIn('hank', 'password123', undefined, '000000'))).toBe(ErrorCode.UNAUTHENTICATED);
    }
    env.clock.advance(30_000);
    await expectLimited(signIn('hank', 'password123', undefined, totp(secret, env.clock.now)), 'this account');
  });

  it('lets sign-ins through, unthrottled, when Redis cannot be reached', async () => {
    const common = env.get<CommonSettings>(COMMON_SETTINGS);
    const settings = env.get<IdentitySettings>(IDENTITY_SETTINGS);
    const throttle = new SignInThrottle(settings, { ...common, redisUrl: 'redis://127.0.0.1:1' });
    try {
      const attempt = await throttle.begin({ account: 'id:1', address: '192.0.2.99' });
      await attempt.succeeded();
    } finally {
      await throttle.onApplicationShutdown();
    }
  });

  it('keeps one Redis client with one error listener however many sign-ins it counts', async () => {
    const throttle = new SignInThrottle(env.get<IdentitySettings>(IDENTITY_SETTINGS), env.get<CommonSettings>(COMMON_SETTINGS));
    try {
      for (let i = 0; i < 12; i++) await (await throttle.begin({ account: `id:listener-${i}`, address: '192.0.2.77' })).succeeded();
      // A listener added per command would pass Node's limit of 10 here (MaxListenersExceededWarning, a leak).
      expect(throttle['redis'].client.listenerCount('error')).toBe(1);
    } finally {
      await throttle.onApplicationShutdown();
    }
  });
});
