import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { IdentityEvents, deletedAccountOf, type DomainEvent } from '@cairn/contracts';
import { consumeEvents, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { WebhooksRepository } from '../webhooks/webhooks.repository.js';

export const HOOKS_OWNERS_DURABLE = 'hooks-service-owners';
/** A deleted user or organization (`kind` tells which): its owner hooks go. */
export const HOOKS_OWNERS_EVENT_FILTER = IdentityEvents.userDeleted;

export function deletedOwnerId(event: DomainEvent): number | null {
  return deletedAccountOf(event)?.id ?? null;
}

/** Removes a deleted owner's hooks; the deletion is idempotent, so a redelivered event changes nothing. */
@Injectable()
export class OwnerDeletionsConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('OwnerDeletionsConsumer');
  private stop?: () => Promise<void>;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly hooks: WebhooksRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stop = await consumeEvents(this.nc, {
      durable: HOOKS_OWNERS_DURABLE,
      subjects: [HOOKS_OWNERS_EVENT_FILTER],
      handle: async (event) => {
        const ownerId = deletedOwnerId(event);
        if (ownerId === null) return;
        const removed = await this.hooks.deleteOwnerHooks(ownerId);
        if (removed) this.logger.log(`${event.type} ${event.id}: removed ${removed} hook(s) of owner ${ownerId}`);
      },
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop?.();
  }
}
