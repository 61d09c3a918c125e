import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AnyDomainEvent } from '@cairn/contracts';
import { DurableConsumers, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { PackageDeletions } from './deletions.js';

/** Consumes owner and repository deletions; an event is acknowledged once its packages are removed or unlinked. */
@Injectable()
export class DeletionsConsumer extends DurableConsumers {
  private readonly logger = new Logger('DeletionsConsumer');

  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    private readonly deletions: PackageDeletions,
  ) {
    // One per deletion subject (a durable consumer takes one filter subject).
    super(nc, ['packages-service-owners', 'packages-service-repositories']);
  }

  protected async handle(event: AnyDomainEvent): Promise<void> {
    const done = await this.deletions.handle(event);
    if (done && (done.packages || done.unlinked)) {
      this.logger.log(`${event.type} ${event.id}: removed ${done.packages} package(s), unlinked ${done.unlinked}`);
    }
  }
}
