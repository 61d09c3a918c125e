import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AnyDomainEvent } from '@cairn/contracts';
import { DurableConsumers, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { ScopeCleanup } from './scope-cleanup.js';

/** Consumes deletions durably; an event is acknowledged once the deleted scope's Actions data is gone. */
@Injectable()
export class EventsConsumer extends DurableConsumers {
  private readonly logger = new Logger('EventsConsumer');

  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    private readonly cleanup: ScopeCleanup,
  ) {
    // One per deletion subject: a durable consumer takes one filter, exact ones keep other events away.
    super(nc, ['runners-service-users', 'runners-service-repositories']);
  }

  protected async handle(event: AnyDomainEvent): Promise<void> {
    const removed = await this.cleanup.handle(event);
    if (removed) {
      this.logger.log(
        `${event.type} ${event.id}: removed ${removed.runners} runner(s), ${removed.registrationTokens} ` +
          `registration token(s), ${removed.variables} variable(s), ${removed.secrets} secret(s)`,
      );
    }
  }
}
