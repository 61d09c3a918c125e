import { Module } from '@nestjs/common';
import { DeployKeyGate } from '../deploy-keys/deploy-key-gate.js';
import { DeployKeysRepository } from '../deploy-keys/deploy-keys.repository.js';
import { GitTransport } from './git-transport.js';
import { loadTransportSettings, TRANSPORT_SETTINGS } from './transport-settings.js';

/**
 * Git over HTTP (internal endpoint behind the gateway) and SSH. Pushes go to the push sink (`PUSH_SINK`) the issue
 * tracker's module provides (`ref-updates/`). Needs the global Prisma, storage and repo-settings modules of
 * repo-service; started from `main.ts` (`afterStart`).
 */
@Module({
    providers: [
    { provide: TRANSPORT_SETTINGS, useFactory: () => loadTransportSettings() },
    GitTransport,
    DeployKeysRepository,
    DeployKeyGate,
  ],
  exports: [GitTransport],
})
export class TransportModule {}
