import type { INestApplicationContext } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Registry } from 'prom-client';
import { ConfigError } from '../config/settings.js';
import { NATS_CONNECTION } from '../nats/nats-connection.js';
import { HEALTH_CHECKS, type HealthCheck } from './health-checks.js';
import { opsAddress, type OpsAddress } from './ops-settings.js';
import { startOpsServer, type OpsServer } from './ops-server.js';
import type { ReadinessCheck } from './readiness.js';

export function loadOpsAddress(service: string): OpsAddress {
  try {
    return opsAddress(service);
  } catch (err) {
    throw err instanceof ConfigError ? err : new ConfigError((err as Error).message);
  }
}

/** Ready when the platform's checks, its NATS connection, `extra` and what parts registered (BullMQ) all answer. */
export async function startAppOps(
  app: INestApplicationContext,
  service: string,
  address: OpsAddress,
  extra: ReadinessCheck[] = [],
  registries: Registry[] = [],
): Promise<OpsServer> {
  const health = app.get<HealthCheck[]>(HEALTH_CHECKS);
  const nc = app.get<NatsConnection>(NATS_CONNECTION);
  const natsCheck: ReadinessCheck = {
    name: 'nats',
    check: async () => {
      if (nc.isClosed()) return false;
      await nc.flush();
      return true;
    },
  };
  // The platform's own `nats` health check only says the connection is not closed: the round trip replaces it.
  const checks = [...health.filter((c) => c.name !== 'nats'), natsCheck, ...extra];
  return startOpsServer({ service, address, checks: () => checks, registries });
}
