import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock.js';
import { ThrottledUsage } from '../common/throttled-usage.js';
import { IDENTITY_SETTINGS, type IdentitySettings } from '../config/identity-settings.js';
import { TokensRepository } from './tokens.repository.js';

/** Records access-token use (`last_used_at`): throttled, never on the request path. */
@Injectable()
export class TokenUsage extends ThrottledUsage {
  constructor(
    tokens: TokensRepository,
    @Inject(IDENTITY_SETTINGS) settings: IdentitySettings,
    @Inject(CLOCK) clock: Clock,
  ) {
    super('token', (id, intervalMs) => tokens.touch(id, intervalMs), settings.tokenLastUsedUpdateIntervalMs, clock);
  }
}
