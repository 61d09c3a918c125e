import { Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Clock } from './clock.js';
import { LastUsedThrottle, UsageRecorder } from '@cairn/platform';

/**
 * The one shape of "record that a credential was used": a throttled, fire-and-forget `last_used_at` write (at most
 * once per id per `[security] TOKEN_LAST_USED_UPDATE_INTERVAL`), failures logged, writes in flight awaited before the
 * database connection closes. Tokens and SSH keys differ only in what they touch and what the log calls them.
 */
export abstract class ThrottledUsage implements OnModuleDestroy {
  readonly recorder: UsageRecorder;

  protected constructor(
    noun: string,
    touch: (id: number, intervalMs: number) => Promise<unknown>,
    intervalMs: number,
    clock: Clock,
  ) {
    const logger = new Logger(`${noun[0].toUpperCase()}${noun.slice(1)}Usage`);
    this.recorder = new UsageRecorder(
      new LastUsedThrottle(intervalMs, clock),
      touch,
      (id, err) => logger.warn(`could not record use of ${noun} ${id}: ${(err as Error).message}`),
    );
  }

  record(id: number): void {
    this.recorder.record(id);
  }

  async onModuleDestroy(): Promise<void> {
    await this.recorder.settle();
  }
}
