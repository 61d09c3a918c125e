import { Inject, Injectable, Logger } from '@nestjs/common';
import { deletedAccountOf, type DomainEvent } from '@cairn/contracts';
import { DurableConsumers, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { WebhooksRepository } from '../webhooks/webhooks.repository.js';

export function deletedOwnerId(event: DomainEvent): number | null {
  return deletedAccountOf(event)?.id ?? null;
}

/** Removes a deleted user's or organization's hooks; the deletion is idempotent, so a redelivered event changes nothing. */
@Injectable()
export class OwnerDeletionsConsumer extends DurableConsumers {
  private readonly logger = new Logger('OwnerDeletionsConsumer');

  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    private readonly hooks: WebhooksRepository,
  ) {
    super(nc, ['hooks-service-owners']);
  }

  protected async handle(event: DomainEvent): Promise<void> {
    const ownerId = deletedOwnerId(event);
    if (ownerId === null) return;
    const removed = await this.hooks.deleteOwnerHooks(ownerId);
    if (removed) this.logger.log(`${event.type} ${event.id}: removed ${removed} hook(s) of owner ${ownerId}`);
  }
}
