import { Inject, Injectable, Logger } from '@nestjs/common';
import { IdentityEvents, deletedAccountOf, type DomainEvent } from '@cairn/contracts';
import { DurableConsumers, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { WebhooksRepository } from '../webhooks/webhooks.repository.js';

/**
 * The durable consumer of owner deletions (a second one: a durable consumer takes one filter, and `repo.evt.>` is
 * the other). Replicas share it.
 */
export const HOOKS_OWNERS_DURABLE = 'hooks-service-owners';
/** A deleted user or organization (`kind` tells which): its owner hooks go. */
export const HOOKS_OWNERS_EVENT_FILTER = IdentityEvents.userDeleted;

/** The owner id whose hooks a deletion event removes, or null for anything else. */
export function deletedOwnerId(event: DomainEvent): number | null {
  return deletedAccountOf(event)?.id ?? null;
}

/** Removes a deleted owner's hooks; the deletion is idempotent, so a redelivered event changes nothing. */
@Injectable()
export class OwnerDeletionsConsumer extends DurableConsumers {
  private readonly logger = new Logger('OwnerDeletionsConsumer');

  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    private readonly hooks: WebhooksRepository,
  ) {
    super(nc, [{ durable: HOOKS_OWNERS_DURABLE, subject: HOOKS_OWNERS_EVENT_FILTER }]);
  }

  protected async handle(event: DomainEvent): Promise<void> {
    const ownerId = deletedOwnerId(event);
    if (ownerId === null) return;
    const removed = await this.hooks.deleteOwnerHooks(ownerId);
    if (removed) this.logger.log(`${event.type} ${event.id}: removed ${removed} hook(s) of owner ${ownerId}`);
  }
}
