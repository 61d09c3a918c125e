import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AnyDomainEvent } from '@cairn/contracts';
import { DurableConsumers, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { DispatchService } from '../deliveries/dispatch.service.js';

/** The durable consumer name of hooks-service on `CAIRN_EVENTS` for repository events (replicas share it). */
export const HOOKS_DURABLE = 'hooks-service';
/** What {@link HOOKS_DURABLE} consumes. */
export const HOOKS_EVENT_FILTER = 'repo.evt.>';

/**
 * The webhook-producing durable consumers: a durable consumer takes one filter subject, so repository events and
 * package events (packages-service's `package` hooks) have one each. Replicas share them.
 */
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
