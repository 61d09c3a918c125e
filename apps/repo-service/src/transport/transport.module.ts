import { Module } from '@nestjs/common';
import { IssueTrackerModule } from '../issues/issue-tracker.module.js';
import { GitTransport } from './git-transport.js';
import { PushRecorderRepository } from './push-recorder.repository.js';
import { PushRecorder } from './push-recorder.service.js';
import { loadTransportSettings, TRANSPORT_SETTINGS } from './transport-settings.js';

/**
 * Git over HTTP (internal endpoint behind the gateway) and SSH; pushes are recorded through `RefUpdates` (from the
 * issue tracker's module). Needs the global Prisma, storage and repo-settings modules of repo-service; started from
 * `main.ts` (`afterStart`).
 */
@Module({
  imports: [IssueTrackerModule],
  providers: [
    { provide: TRANSPORT_SETTINGS, useFactory: () => loadTransportSettings() },
    PushRecorderRepository,
    PushRecorder,
    GitTransport,
  ],
  exports: [GitTransport, PushRecorder],
})
export class TransportModule {}
