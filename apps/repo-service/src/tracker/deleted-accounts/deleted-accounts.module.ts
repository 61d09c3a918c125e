import { Module } from '@nestjs/common';
import { DeletedAccountsConsumer } from './deleted-accounts.consumer.js';
import { DeletedAccountsRepository } from './deleted-accounts.repository.js';

/** Cleans up after deleted users (identity-service's `identity.evt.user.deleted`). */
@Module({ providers: [DeletedAccountsRepository, DeletedAccountsConsumer] })
export class DeletedAccountsModule {}
