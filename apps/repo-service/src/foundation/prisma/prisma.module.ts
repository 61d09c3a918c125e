import { Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service.js';
import { EventOutbox } from '@cairn/platform';

@Global()
@Module({
  providers: [PrismaService, EventOutbox],
  exports: [PrismaService, EventOutbox],
})
export class PrismaModule {}
