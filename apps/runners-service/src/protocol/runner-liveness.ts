import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { LastUsedThrottle, UsageRecorder } from '@cairn/platform';
import { livenessWriteIntervalMs, RUNNERS_SETTINGS, type RunnersSettings } from '../config/runners-settings.js';
import { RunnersRepository } from '../runners/runners.repository.js';

// Heartbeats written like a token's `last_used_at`: at most once per runner per interval, fire-and-forget, and as a
// conditional UPDATE so replicas do not write twice within the window.
@Injectable()
export class RunnerLivenessRecorder implements OnModuleDestroy {
  private readonly logger = new Logger('RunnerLiveness');
  readonly online: UsageRecorder;
  readonly active: UsageRecorder;

  constructor(
    private readonly runners: RunnersRepository,
    @Inject(RUNNERS_SETTINGS) settings: RunnersSettings,
  ) {
    const interval = livenessWriteIntervalMs(settings);
    const onError = (what: string) => (id: number, err: unknown) =>
      this.logger.warn(`could not record ${what} of runner ${id}: ${(err as Error).message}`);
    this.online = new UsageRecorder(new LastUsedThrottle(interval), (id, ms) => this.runners.touchOnline(id, ms), onError('liveness'));
    this.active = new UsageRecorder(new LastUsedThrottle(interval), (id, ms) => this.runners.touchActive(id, ms), onError('activity'));
  }

  seen(runnerId: number): void {
    this.online.record(runnerId);
  }

  working(runnerId: number): void {
    this.active.record(runnerId);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.online.settle(), this.active.settle()]);
  }
}
