import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock.js';
import { ThrottledUsage } from '../common/throttled-usage.js';
import { IDENTITY_SETTINGS, type IdentitySettings } from '../config/identity-settings.js';
import { KeysRepository } from './keys.repository.js';

/** Records SSH key use (`last_used_at`, reported by repo-service's SSH server), throttled like tokens. */
@Injectable()
export class KeyUsage extends ThrottledUsage {
  constructor(keys: KeysRepository, @Inject(IDENTITY_SETTINGS) settings: IdentitySettings, @Inject(CLOCK) clock: Clock) {
    super('key', (id, intervalMs) => keys.touch(id, intervalMs), settings.tokenLastUsedUpdateIntervalMs, clock);
  }
}
