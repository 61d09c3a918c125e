import { Inject, Injectable, Logger } from '@nestjs/common';
import { deletedAccountOf, type DomainEvent } from '@cairn/contracts';
import { DurableConsumers, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { DeletedAccountsRepository } from './deleted-accounts.repository.js';

/** The id of the deleted user in a deletion event, or null for anything else (organizations own nothing here). */
export function deletedUserId(event: DomainEvent): number | null {
  const account = deletedAccountOf(event);
  return account?.kind === 'user' ? account.id : null;
}

@Injectable()
export class DeletedAccountsConsumer extends DurableConsumers {
  private readonly logger = new Logger('DeletedAccountsConsumer');

  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    private readonly accounts: DeletedAccountsRepository,
  ) {
    super(nc, ['repo-service-deleted-accounts']);
  }

  protected async handle(event: DomainEvent): Promise<void> {
    const userId = deletedUserId(event);
    if (userId === null) return;
    const removed = await this.accounts.removeDataOf(userId);
    this.logger.log(`${event.type} ${event.id}: removed the data of user ${userId} ${JSON.stringify(removed)}`);
  }
}
