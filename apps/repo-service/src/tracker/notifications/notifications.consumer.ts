import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { consumeEvents, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { NotificationsService } from './notifications.service.js';

/** The durable consumer that turns repo-service's own issue, comment and pull-request events into threads. */
export const NOTIFICATIONS_DURABLE = 'repo-service-notifications';
/** One filter per durable consumer (NATS 2.9): every repository event; the service picks the ones that notify. */
export const NOTIFICATIONS_EVENT_FILTER = 'repo.evt.>';

@Injectable()
export class NotificationsConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private stop?: () => Promise<void>;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly notifications: NotificationsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stop = await consumeEvents(this.nc, {
      durable: NOTIFICATIONS_DURABLE,
      subjects: [NOTIFICATIONS_EVENT_FILTER],
      handle: (event) => this.notifications.fromEvent(event),
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop?.();
  }
}
