import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';

/** The Postgres schema packages-service owns. */
export const PACKAGES_SCHEMA = 'packages';

/** A transaction handle (what `$transaction(async (tx) => …)` passes to repositories). */
export type Tx = Prisma.TransactionClient;
/** Either the client or a transaction: repositories accept both. */
export type Db = PrismaService | Tx;

@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(COMMON_SETTINGS) settings: CommonSettings) {
    super({ adapter: new PrismaPg({ connectionString: settings.databaseUrl }, { schema: PACKAGES_SCHEMA }) });
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
