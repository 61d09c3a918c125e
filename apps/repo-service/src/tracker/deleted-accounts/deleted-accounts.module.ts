import { Module } from '@nestjs/common';
import { DeletedAccountsConsumer } from './deleted-accounts.consumer.js';
import { DeletedAccountsRepository } from './deleted-accounts.repository.js';

@Module({ providers: [DeletedAccountsRepository, DeletedAccountsConsumer] })
export class DeletedAccountsModule {}
