import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AnyDomainEvent } from '@cairn/contracts';
import { DurableConsumers, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { DispatchService } from '../deliveries/dispatch.service.js';

/** Consumes the events hooks turn into deliveries; an event is acknowledged once its deliveries are written and enqueued. */
@Injectable()
export class EventsConsumer extends DurableConsumers {
  private readonly logger = new Logger('EventsConsumer');

  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    private readonly dispatch: DispatchService,
  ) {
    // A durable consumer takes one filter subject: repository and package events have one each.
    super(nc, ['hooks-service', 'hooks-service-packages']);
  }

  protected async handle(event: AnyDomainEvent): Promise<void> {
    const { deliveries } = await this.dispatch.handleEvent(event);
    if (deliveries) this.logger.log(`${event.type} ${event.id}: ${deliveries} deliver${deliveries === 1 ? 'y' : 'ies'}`);
  }
}
