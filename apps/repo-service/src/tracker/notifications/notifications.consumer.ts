import { Inject, Injectable } from '@nestjs/common';
import type { AnyDomainEvent } from '@cairn/contracts';
import { DurableConsumers, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { NotificationsService } from './notifications.service.js';

/** Turns repo-service's own issue, comment and pull-request events into threads. */
@Injectable()
export class NotificationsConsumer extends DurableConsumers {
  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    private readonly notifications: NotificationsService,
  ) {
    super(nc, ['repo-service-notifications']);
  }

  protected handle(event: AnyDomainEvent): Promise<void> {
    return this.notifications.fromEvent(event);
  }
}
