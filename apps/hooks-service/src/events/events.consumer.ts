import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { consumeEvents, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { DispatchService } from '../deliveries/dispatch.service.js';

export const HOOKS_DURABLE = 'hooks-service';
export const HOOKS_EVENT_FILTER = 'repo.evt.>';

// A durable consumer takes one filter subject: repository and package events have one each.
export const HOOKS_EVENT_CONSUMERS = [
  { durable: HOOKS_DURABLE, subject: HOOKS_EVENT_FILTER },
  { durable: 'hooks-service-packages', subject: 'packages.evt.>' },
] as const;

/** Consumes the events hooks turn into deliveries; an event is acknowledged once its deliveries are written and enqueued. */
@Injectable()
export class EventsConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('EventsConsumer');
  private readonly stops: (() => Promise<void>)[] = [];

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly dispatch: DispatchService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const { durable, subject } of HOOKS_EVENT_CONSUMERS) {
      const stop = await consumeEvents(this.nc, {
        durable,
        subjects: [subject],
        handle: async (event) => {
          const { deliveries } = await this.dispatch.handleEvent(event);
          if (deliveries) this.logger.log(`${event.type} ${event.id}: ${deliveries} deliver${deliveries === 1 ? 'y' : 'ies'}`);
        },
      });
      this.stops.push(stop);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.stops.map((stop) => stop()));
  }
}
