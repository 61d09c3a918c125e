import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AnyDomainEvent } from '@cairn/contracts';
import { DurableConsumers, NATS_CONNECTION } from '@cairn/platform';
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
export class EventsConsumer extends DurableConsumers {
  private readonly logger = new Logger('EventsConsumer');

  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    private readonly dispatch: DispatchService,
  ) {
    super(nc, HOOKS_EVENT_CONSUMERS);
  }

  protected async handle(event: AnyDomainEvent): Promise<void> {
    const { deliveries } = await this.dispatch.handleEvent(event);
    if (deliveries) this.logger.log(`${event.type} ${event.id}: ${deliveries} deliver${deliveries === 1 ? 'y' : 'ies'}`);
  }
}
