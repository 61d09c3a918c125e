import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock.js';
import { LastUsedThrottle, UsageRecorder } from '../common/last-used-throttle.js';
import { IDENTITY_SETTINGS, type IdentitySettings } from '../config/identity-settings.js';
import { KeysRepository } from './keys.repository.js';

/** Records SSH key use (`last_used_at`), throttled like tokens by `[security] TOKEN_LAST_USED_UPDATE_INTERVAL`. */
@Injectable()
export class KeyUsage implements OnModuleDestroy {
  private readonly logger = new Logger('KeyUsage');
  readonly recorder: UsageRecorder;

  constructor(
    keys: KeysRepository,
    @Inject(IDENTITY_SETTINGS) settings: IdentitySettings,
    @Inject(CLOCK) clock: Clock,
  ) {
    this.recorder = new UsageRecorder(
      new LastUsedThrottle(settings.tokenLastUsedUpdateIntervalMs, clock),
      (id, intervalMs) => keys.touch(id, intervalMs),
      (id, err) => this.logger.warn(`could not record use of key ${id}: ${(err as Error).message}`),
    );
  }

  record(keyId: number): void {
    this.recorder.record(keyId);
  }

  async onModuleDestroy(): Promise<void> {
    await this.recorder.settle();
  }
}
