import { Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service.js';
import { EventOutbox } from '@cairn/platform';

/** The repo schema's Prisma client and the event outbox, for every module of repo-service. */
@Global()
@Module({
  providers: [PrismaService, EventOutbox],
  exports: [PrismaService, EventOutbox],
})
export class PrismaModule {}
