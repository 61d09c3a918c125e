import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  DomainError, TWO_FACTOR_ENROL_PATH, type ActorDto, type TwoFactorConfirmReply, type TwoFactorEnrollReply,
} from '@cairn/contracts';
import { COMMON_SETTINGS, createSecretBox, type CommonSettings, type SecretBox, uniqueViolation } from '@cairn/platform';
import { CLOCK, type Clock } from '../common/clock.js';
import { IDENTITY_SETTINGS, type IdentitySettings } from '../config/identity-settings.js';
import { randomBase62 } from '../tokens/token-secret.js';
import { UsersRepository } from '../users/users.repository.js';
import { base32Decode, base32Encode, otpauthUrl, totpStepOf } from './totp.js';
import { TwoFactorRepository } from './two-factor.repository.js';

const ISSUER = 'Cairn';

/** TOTP two-factor enrolment (started, then confirmed with a code); seeds are stored encrypted, the scratch token hashed. */
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

  /** A new pending secret, returned once; restarting replaces a pending one (a lost QR code), never an active one. */
  async enroll(actor: ActorDto, username?: string): Promise<TwoFactorEnrollReply> {
    if (username !== undefined && username.toLowerCase() !== actor.login.toLowerCase()) {
      throw DomainError.forbidden('users can only enrol themselves in two-factor authentication');
    }
    const user = await this.users.findById(actor.id);
    if (!user || user.type !== 'user') throw DomainError.notFound('user does not exist');
    if (user.twoFactor) throw DomainError.unprocessable('two-factor authentication is already enrolled');
    const secret = base32Encode(randomBytes(20));
    await this.repo.startPending(user.id, this.box.seal(secret));
    return { secret, otpauth_url: otpauthUrl(ISSUER, user.name, secret) };
  }

  /** Activates the actor's pending enrolment with a current code of it; the recovery code is returned this once. */
  async confirm(actor: ActorDto, passcode: string): Promise<TwoFactorConfirmReply> {
    const pending = await this.repo.findPending(actor.id);
    if (!pending) {
      if (await this.repo.find(actor.id)) throw DomainError.unprocessable('two-factor authentication is already enrolled');
      throw DomainError.unprocessable(`no two-factor enrolment to confirm: start one with POST ${TWO_FACTOR_ENROL_PATH}`);
    }
    let secret: Buffer;
    try {
      secret = base32Decode(this.box.open(pending.secretEncrypted));
    } catch {
      this.logger.error(`pending two-factor secret of user ${actor.id} cannot be decrypted (was [security] SECRET_KEY changed?)`);
      throw DomainError.unprocessable(`the enrolment cannot be read any more: start again with POST ${TWO_FACTOR_ENROL_PATH}`);
    }
    // The confirming code counts as used: it cannot sign in afterwards.
    const step = totpStepOf(secret, passcode, this.clock(), { window: 1 });
    if (step === null) {
      throw DomainError.unprocessable('invalid two-factor authentication code: enter the current code of your authenticator app');
    }
    const scratch = randomBase62(12);
    let activated: boolean;
    try {
      activated = await this.repo.activate(pending, hashScratch(scratch), step);
    } catch (err) {
      if (uniqueViolation(err) !== null) throw DomainError.unprocessable('two-factor authentication is already enrolled');
      throw err;
    }
    // Restarted or removed between reading and activating: the code was for a secret that no longer waits.
    if (!activated) throw DomainError.unprocessable(`no two-factor enrolment to confirm: start one with POST ${TWO_FACTOR_ENROL_PATH}`);
    return { scratch_token: scratch };
  }

  /** With `passcode` (the web page), it must be a current, unused code of the active enrolment. */
  async disable(actor: ActorDto, username?: string, passcode?: string): Promise<void> {
    const target = username === undefined ? await this.users.findById(actor.id) : await this.users.findUserByName(username);
    if (!target || target.type !== 'user') throw DomainError.notFound(`user "${username ?? actor.login}" does not exist`);
    if (target.id !== actor.id && !actor.isAdmin) {
      throw DomainError.forbidden('doer should be the site admin or be same as the contextUser');
    }
    if (passcode !== undefined && !(await this.verifyPasscode(target.id, passcode.trim()))) {
      throw DomainError.unprocessable('invalid two-factor authentication code: enter the current code of your authenticator app');
    }
    if (!(await this.repo.delete(target.id))) throw DomainError.notFound('two-factor authentication is not enrolled');
  }

  /** Accepted once: replaced in the same conditional UPDATE by a code nobody is shown (as Gitea regenerates it). */
  async useRecoveryCode(userId: number, code: string): Promise<boolean> {
    if (!/^[A-Za-z0-9]{1,64}$/.test(code)) return false;
    return this.repo.consumeScratch(userId, hashScratch(code), newUnshownScratchHash());
  }

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
    const step = totpStepOf(secret, passcode, this.clock(), { window: 1, after: row.lastUsedStep ?? undefined });
    return step !== null && this.repo.claimStep(userId, step);
  }
}

function newUnshownScratchHash(): string {
  return hashScratch(randomBase62(24));
}

function hashScratch(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
