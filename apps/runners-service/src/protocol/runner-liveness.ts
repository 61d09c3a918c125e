import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { LastUsedThrottle, UsageRecorder } from '@cairn/platform';
import { livenessWriteIntervalMs, RUNNERS_SETTINGS, type RunnersSettings } from '../config/runners-settings.js';
import { RunnersRepository } from '../runners/runners.repository.js';

/**
 * A runner's heartbeats (`last_online` on every authenticated call, `last_active` on task reports), written like a
 * token's `last_used_at`: at most once per runner per interval in this process, fire-and-forget, and as a conditional
 * UPDATE so replicas do not write twice within the window. Polls in between cost no database write.
 */
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

  /** The runner made an authenticated call. */
  seen(runnerId: number): void {
    this.online.record(runnerId);
  }

  /** The runner reported work on a task (it is busy). */
  working(runnerId: number): void {
    this.active.record(runnerId);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.online.settle(), this.active.settle()]);
  }
}
