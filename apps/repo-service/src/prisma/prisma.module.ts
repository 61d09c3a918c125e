import { Global, Module } from '@nestjs/common';
import { EventOutbox } from './event-outbox.js';
import { PrismaService } from './prisma.service.js';

/** The repo schema's Prisma client and the event outbox, for every module of repo-service. */
@Global()
@Module({
  providers: [PrismaService, EventOutbox],
  exports: [PrismaService, EventOutbox],
})
export class PrismaModule {}
