import { Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Clock } from './clock.js';
import { LastUsedThrottle, UsageRecorder } from '@cairn/platform';

/** Throttled, fire-and-forget `last_used_at` writes; writes in flight are awaited before the connection closes. */
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
