import { Module } from '@nestjs/common';
import { DeployKeyGate } from '../deploy-keys/deploy-key-gate.js';
import { DeployKeysRepository } from '../deploy-keys/deploy-keys.repository.js';
import { GitTransport } from './git-transport.js';
import { loadTransportSettings, TRANSPORT_SETTINGS } from './transport-settings.js';

/** Git over HTTP and SSH; its ports are implemented above and bound in `layer-ports.module.ts`. */
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
