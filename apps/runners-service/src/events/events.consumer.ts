import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { consumeEvents, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { ScopeCleanup } from './scope-cleanup.js';

/** The durable consumer name of runners-service on `CAIRN_EVENTS` (replicas share it). */
export const RUNNERS_DURABLE = 'runners-service';
/**
 * What runners-service consumes: every deletion (`<service>.evt.<resource>.deleted`; one filter, since a durable
 * consumer takes one). {@link deletedScope} picks the user and repository deletions and ignores the rest.
 */
export const RUNNERS_EVENT_FILTER = '*.evt.*.deleted';

/** Consumes deletions durably; an event is acknowledged once the deleted scope's Actions data is gone. */
@Injectable()
export class EventsConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('EventsConsumer');
  private stop?: () => Promise<void>;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly cleanup: ScopeCleanup,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stop = await consumeEvents(this.nc, {
      durable: RUNNERS_DURABLE,
      subjects: [RUNNERS_EVENT_FILTER],
      handle: async (event) => {
        const removed = await this.cleanup.handle(event);
        if (removed) {
          this.logger.log(
            `${event.type} ${event.id}: removed ${removed.runners} runner(s), ${removed.registrationTokens} registration ` +
              `token(s), ${removed.variables} variable(s), ${removed.secrets} secret(s)`,
          );
        }
      },
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop?.();
  }
}
