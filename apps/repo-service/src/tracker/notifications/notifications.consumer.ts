import { Inject, Injectable } from '@nestjs/common';
import type { AnyDomainEvent } from '@cairn/contracts';
import { DurableConsumers, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { NotificationsService } from './notifications.service.js';

/** The durable consumer that turns repo-service's own issue, comment and pull-request events into threads. */
export const NOTIFICATIONS_DURABLE = 'repo-service-notifications';
/** One filter per durable consumer (NATS 2.9): every repository event; the service picks the ones that notify. */
export const NOTIFICATIONS_EVENT_FILTER = 'repo.evt.>';

@Injectable()
export class NotificationsConsumer extends DurableConsumers {
  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    private readonly notifications: NotificationsService,
  ) {
    super(nc, [{ durable: NOTIFICATIONS_DURABLE, subject: NOTIFICATIONS_EVENT_FILTER }]);
  }

  protected handle(event: AnyDomainEvent): Promise<void> {
    return this.notifications.fromEvent(event);
  }
}
