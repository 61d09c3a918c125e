import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock.js';
import { LastUsedThrottle, UsageRecorder } from '../common/last-used-throttle.js';
import { IDENTITY_SETTINGS, type IdentitySettings } from '../config/identity-settings.js';
import { TokensRepository } from './tokens.repository.js';

/** Records access-token use (`last_used_at`): throttled, never on the request path. */
@Injectable()
export class TokenUsage implements OnModuleDestroy {
  private readonly logger = new Logger('TokenUsage');
  readonly recorder: UsageRecorder;

  constructor(
    tokens: TokensRepository,
    @Inject(IDENTITY_SETTINGS) settings: IdentitySettings,
    @Inject(CLOCK) clock: Clock,
  ) {
    this.recorder = new UsageRecorder(
      new LastUsedThrottle(settings.tokenLastUsedUpdateIntervalMs, clock),
      (id, intervalMs) => tokens.touch(id, intervalMs),
      (id, err) => this.logger.warn(`could not record use of token ${id}: ${(err as Error).message}`),
    );
  }

  record(tokenId: number): void {
    this.recorder.record(tokenId);
  }

  /** Waits for writes in flight (before the database connection closes). */
  async onModuleDestroy(): Promise<void> {
    await this.recorder.settle();
  }
}
