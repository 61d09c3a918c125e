import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { DomainError } from '@cairn/contracts';
import { COMMON_SETTINGS, LazyRedis, type CommonSettings } from '@cairn/platform';
import { IDENTITY_SETTINGS, type IdentitySettings } from '../config/identity-settings.js';

/** Who is signing in: the account (a user id, or the name given when there is no such user) and the source address. */
export interface SignInSubject {
  account: string;
  /** Absent when the caller does not know it (the admin CLI): only the account limit applies then. */
  address?: string;
}

export interface SignInAttempt {
  /** Password and code (if any) were right: the account's failures are forgotten, the address's attempt uncounted. */
  succeeded(): Promise<void>;
  /** Neither right nor wrong (the password was right but a two-factor code is still needed): uncounted. */
  undecided(): Promise<void>;
}

// Counting before the password is checked keeps concurrent guesses from all slipping in under the limit.
const RESERVE = `
for i = 1, #KEYS do
  local limit = tonumber(ARGV[i])
  if limit > 0 and tonumber(redis.call('GET', KEYS[i]) or '0') >= limit then
    return {i, redis.call('PTTL', KEYS[i])}
  end
end
for i = 1, #KEYS do
  if tonumber(ARGV[i]) > 0 then
    redis.call('INCR', KEYS[i])
    redis.call('PEXPIRE', KEYS[i], ARGV[#KEYS + 1], 'NX')
  end
end
return {0, 0}
`;

/** Gives back one counted attempt per key (never below zero, never creating a key); with ARGV[1] = 1, clears KEYS[1]. */
const RELEASE = `
if ARGV[1] == '1' then redis.call('DEL', KEYS[1]) end
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 and tonumber(redis.call('GET', KEYS[i])) > 0 then redis.call('DECR', KEYS[i]) end
end
return 0
`;

// Per account and per source address, fixed windows in Redis (rules: docs/architecture.md). Without Redis sign-in
// works unthrottled: a cache outage must not lock everybody out.
@Injectable()
export class SignInThrottle implements OnApplicationShutdown {
  private readonly logger = new Logger('SignInThrottle');
  private readonly prefix: string;
  // Connected on first use: the admin CLI, which shares this module, never needs Redis.
  private readonly redis: LazyRedis;

  constructor(
    @Inject(IDENTITY_SETTINGS) private readonly settings: IdentitySettings,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {
    this.prefix = `${common.queuePrefix}:sign-in-failures`;
    this.redis = new LazyRedis(common.redisUrl);
  }

  /** Counts an attempt, or throws RATE_LIMITED (429) when the account or the address has failed too often. */
  async begin(subject: SignInSubject): Promise<SignInAttempt> {
    const { loginMaxFailuresPerAccount: perAccount, loginMaxFailuresPerAddress: perAddress } = this.settings;
    const keys = [this.key('account', subject.account.toLowerCase())];
    const limits = [perAccount];
    if (subject.address) {
      keys.push(this.key('address', subject.address));
      limits.push(perAddress);
    }
    const windowMs = Math.max(1000, this.settings.loginFailureWindowMs);
    const reply = await this.run<[number, number]>(RESERVE, keys, [...limits, windowMs]);
    if (reply && reply[0] !== 0) {
      const seconds = (reply[1] > 0 ? reply[1] : windowMs) / 1000;
      const who = reply[0] === 1 ? 'this account' : 'your address';
      throw DomainError.rateLimited(
        `too many failed sign-in attempts for ${who}: try again in ${Math.ceil(seconds)} seconds (or use an access token)`,
        seconds,
      );
    }
    // Keys of a limit that is off were never created: giving back on them does nothing.
    return {
      succeeded: async () => {
        await this.run(RELEASE, keys, ['1']);
      },
      undecided: async () => {
        await this.run(RELEASE, keys, ['0']);
      },
    };
  }

  private key(kind: 'account' | 'address', value: string): string {
    return `${this.prefix}:${kind}:${value}`;
  }

  /** Runs a script; on any Redis failure logs and answers null (fail open). */
  private async run<T>(script: string, keys: string[], args: Array<string | number>): Promise<T | null> {
    try {
      return (await this.redis.client.eval(script, keys.length, ...keys, ...args.map(String))) as T;
    } catch (err) {
      this.logger.error(`sign-in throttle unavailable (sign-ins are not throttled meanwhile): ${(err as Error).message}`);
      return null;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.close();
  }
}
