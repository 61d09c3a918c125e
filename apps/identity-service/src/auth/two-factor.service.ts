import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError, type ActorDto, type TwoFactorEnrollReply } from '@cairn/contracts';
import { COMMON_SETTINGS, createSecretBox, type CommonSettings, type SecretBox } from '@cairn/platform';
import { CLOCK, type Clock } from '../common/clock.js';
import { IDENTITY_SETTINGS, type IdentitySettings } from '../config/identity-settings.js';
import { uniqueViolation } from '../prisma/prisma-errors.js';
import { randomBase62 } from '../tokens/token-secret.js';
import { UsersRepository } from '../users/users.repository.js';
import { base32Decode, base32Encode, otpauthUrl, verifyTotp } from './totp.js';
import { TwoFactorRepository } from './two-factor.repository.js';

const ISSUER = 'Cairn';

/** TOTP two-factor enrolment; seeds are stored encrypted, the scratch token hashed. */
@Injectable()
export class TwoFactorService {
  private readonly logger = new Logger('TwoFactorService');
  private readonly box: SecretBox;

  constructor(
    private readonly repo: TwoFactorRepository,
    private readonly users: UsersRepository,
    @Inject(IDENTITY_SETTINGS) settings: IdentitySettings,
    @Inject(COMMON_SETTINGS) common: CommonSettings,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.box = createSecretBox(settings.secretKey, 'two-factor', common.runMode, this.logger);
  }

  /** Enrols the actor (users enrol only themselves); the secret is returned this once. */
  async enroll(actor: ActorDto, username?: string): Promise<TwoFactorEnrollReply> {
    if (username !== undefined && username.toLowerCase() !== actor.login.toLowerCase()) {
      throw DomainError.forbidden('users can only enrol themselves in two-factor authentication');
    }
    const user = await this.users.findById(actor.id);
    if (!user || user.type !== 'user') throw DomainError.notFound('user does not exist');
    if (user.twoFactor) throw DomainError.unprocessable('two-factor authentication is already enrolled');
    const secret = base32Encode(randomBytes(20));
    const scratch = randomBase62(12);
    try {
      await this.repo.create(user.id, this.box.seal(secret), hashScratch(scratch));
    } catch (err) {
      if (uniqueViolation(err) !== null) throw DomainError.unprocessable('two-factor authentication is already enrolled');
      throw err;
    }
    return { secret, otpauth_url: otpauthUrl(ISSUER, user.name, secret), scratch_token: scratch };
  }

  /** Removes an enrolment: the user themself or a site admin. */
  async disable(actor: ActorDto, username?: string): Promise<void> {
    const target = username === undefined ? await this.users.findById(actor.id) : await this.users.findUserByName(username);
    if (!target || target.type !== 'user') throw DomainError.notFound(`user "${username ?? actor.login}" does not exist`);
    if (target.id !== actor.id && !actor.isAdmin) {
      throw DomainError.forbidden('doer should be the site admin or be same as the contextUser');
    }
    if (!(await this.repo.delete(target.id))) throw DomainError.notFound('two-factor authentication is not enrolled');
  }

  /** Checks a TOTP passcode (6 digits, ±1 step) for an enrolled user. */
  async verifyPasscode(userId: number, passcode: string): Promise<boolean> {
    const row = await this.repo.find(userId);
    if (!row) return false;
    let secret: Buffer;
    try {
      secret = base32Decode(this.box.open(row.secretEncrypted));
    } catch {
      this.logger.error(`two-factor secret of user ${userId} cannot be decrypted (was [security] SECRET_KEY changed?)`);
      return false;
    }
    return verifyTotp(secret, passcode, this.clock(), { window: 1 });
  }
}

function hashScratch(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
