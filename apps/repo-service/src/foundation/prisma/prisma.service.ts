import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from '../../generated/prisma/client.js';

/** The Postgres schema repo-service owns (also the name raw SQL must qualify tables with). */
export const REPO_SCHEMA = 'repo';

export type Tx = Prisma.TransactionClient;
export type Db = PrismaService | Tx;

@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  constructor(@Inject(COMMON_SETTINGS) settings: CommonSettings) {
    super({ adapter: new PrismaPg({ connectionString: settings.databaseUrl }, { schema: REPO_SCHEMA }) });
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
