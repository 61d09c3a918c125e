import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { COMMON_SETTINGS, ClusterSchedule, type CommonSettings } from '@cairn/platform';
import { HOOKS_SETTINGS, type HooksSettings } from '../config/hooks-settings.js';
import { DeliveriesRepository, type StrandedDelivery } from './deliveries.repository.js';
import { DeliveryQueue, planJobs } from './delivery-queue.js';

// Nothing is lost between a committed delivery row and its job: at start, then periodically (on one replica per
// cluster), deliveries that should have a job by now (written before a crash, a retry not enqueued, a worker that
// died) get one.
@Injectable()
export class DeliverySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DeliverySweeper');
  private schedule?: ClusterSchedule;
  private running?: Promise<number>;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly queue: DeliveryQueue,
    @Inject(HOOKS_SETTINGS) private readonly settings: HooksSettings,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  onApplicationBootstrap(): void {
    void this.sweep(0);
    const everyMs = this.settings.sweepIntervalMs;
    this.schedule = new ClusterSchedule({ databaseUrl: this.common.databaseUrl, job: 'hooks.delivery-sweep', everyMs, run: () => this.sweep(everyMs) });
    this.schedule.start();
  }

  sweep(graceMs: number): Promise<number> {
    if (this.running) return this.running;
    this.running = this.doSweep(graceMs)
      .catch((err: Error) => {
        this.logger.warn(`sweep failed: ${err.message}`);
        return 0;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async doSweep(graceMs: number): Promise<number> {
    // All pages first: one group of first attempts may span two pages, and its job must carry all of them.
    const stranded: StrandedDelivery[] = [];
    let after = 0;
    for (;;) {
      const batch = await this.deliveries.stranded(graceMs, after, 500);
      stranded.push(...batch);
      if (batch.length < 500) break;
      after = batch[batch.length - 1].id;
    }
    let fixed = 0;
    for (const job of planJobs(stranded)) if ((await this.queue.ensure(job)) !== 'exists') fixed++;
    if (fixed) this.logger.log(`enqueued ${fixed} job${fixed === 1 ? '' : 's'} of stranded deliveries`);
    return fixed;
  }

  async onModuleDestroy(): Promise<void> {
    await this.schedule?.stop();
    await this.running;
  }
}
