import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';

export const PACKAGES_SCHEMA = 'packages';

export type Tx = Prisma.TransactionClient;
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
