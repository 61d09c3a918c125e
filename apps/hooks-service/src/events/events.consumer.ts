import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { consumeEvents, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { DispatchService } from '../deliveries/dispatch.service.js';

/** The durable consumer name of hooks-service on `CAIRN_EVENTS` (replicas share it). */
export const HOOKS_DURABLE = 'hooks-service';
/** What hooks-service consumes. */
export const HOOKS_EVENT_FILTER = 'repo.evt.>';

/** Consumes `repo.evt.>` durably; an event is acknowledged once its deliveries are written and enqueued. */
@Injectable()
export class EventsConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('EventsConsumer');
  private stop?: () => Promise<void>;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly dispatch: DispatchService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stop = await consumeEvents(this.nc, {
      durable: HOOKS_DURABLE,
      subjects: [HOOKS_EVENT_FILTER],
      handle: async (event) => {
        const { deliveries } = await this.dispatch.handleEvent(event);
        if (deliveries) this.logger.log(`${event.type} ${event.id}: ${deliveries} deliver${deliveries === 1 ? 'y' : 'ies'}`);
      },
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop?.();
  }
}
