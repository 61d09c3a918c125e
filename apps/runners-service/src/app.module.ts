import { Module } from '@nestjs/common';
import { PlatformModule } from '@cairn/platform';
import { RUNNERS_SETTINGS, loadRunnersSettings } from './config/runners-settings.js';
import { EventOutbox } from './prisma/event-outbox.js';
import { PrismaService } from './prisma/prisma.service.js';

/** runners-service: self-hosted runners, registration tokens, tasks, and Actions variables and secrets. */
@Module({
  imports: [PlatformModule.forService({ service: 'runners', schema: 'runners' })],
  providers: [{ provide: RUNNERS_SETTINGS, useFactory: () => loadRunnersSettings() }, PrismaService, EventOutbox],
})
export class AppModule {}
