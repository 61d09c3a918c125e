import {
  Controller, Global, Inject, Module, type DynamicModule, type OnApplicationShutdown, type OnModuleInit,
  type Provider,
} from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { healthSubject, type HealthReply } from '@cairn/contracts';
import type { NatsConnection } from '@nats-io/transport-node';
import pg from 'pg';
import { commonSettings, loadSettings, type CommonSettings } from '../config/settings.js';
import { RpcClient } from '../rpc/rpc-client.js';
import { connectNats } from '../events/jetstream.js';
import { OutboxRelay } from '../events/outbox.js';
import { watchOutboxLag } from '../events/outbox-lag.js';
import { createPgPool } from '../db/pg-pool.js';
import { NatsNamespace } from '../nats/nats-namespace.js';
import { natsConnectionOptions } from '../nats/nats-connection-options.js';
import { NATS_CONNECTION } from '../nats/nats-connection.js';
import { HEALTH_CHECKS, type HealthCheck } from '../ops/health-checks.js';

export const COMMON_SETTINGS = Symbol('COMMON_SETTINGS');
export const SERVICE_NAME = Symbol('SERVICE_NAME');
export const PG_POOL = Symbol('PG_POOL');

export interface PlatformOptions {
  service: string;
  /** Set for data-owning services (enables the outbox relay and DB health). */
  schema?: string;
}

class PlatformLifecycle implements OnModuleInit, OnApplicationShutdown {
  private stopOutboxLag?: () => void;

  constructor(
    private readonly rpc: RpcClient,
    private readonly nc: NatsConnection,
    private readonly relay: OutboxRelay | null,
    private readonly pool: pg.Pool | null,
    private readonly schema: string | undefined,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.rpc.connect();
    await this.relay?.start();
    if (this.schema && this.pool) this.stopOutboxLag = watchOutboxLag(this.schema, this.pool);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopOutboxLag?.();
    await this.relay?.stop();
    await this.rpc.close().catch(() => undefined);
    await this.nc.drain().catch(() => undefined);
    await this.pool?.end().catch(() => undefined);
  }
}

function healthController(service: string) {
  @Controller()
  class HealthController {
    constructor(@Inject(HEALTH_CHECKS) private readonly checks: HealthCheck[]) {}

    @MessagePattern(healthSubject(service))
    async health(): Promise<HealthReply> {
      const results: Record<string, boolean> = {};
      await Promise.all(
        this.checks.map(async (c) => {
          results[c.name] = await c.check().then(
            (ok) => ok,
            () => false,
          );
        }),
      );
      return { service, ok: Object.values(results).every(Boolean), checks: results };
    }
  }
  return HealthController;
}

@Global()
@Module({})
export class PlatformModule {
  static forService(options: PlatformOptions, extraHealthChecks: Provider[] = []): DynamicModule {
    const providers: Provider[] = [
      { provide: SERVICE_NAME, useValue: options.service },
      { provide: COMMON_SETTINGS, useFactory: () => loadSettings(commonSettings) },
      {
        provide: RpcClient,
        inject: [COMMON_SETTINGS],
        useFactory: (s: CommonSettings) =>
          new RpcClient(
            natsConnectionOptions(s, options.service),
            s.rpcTimeoutMs,
            `${options.service}-client`,
            new NatsNamespace(s.natsNamespace),
            { maxMessageBytes: s.rpcMaxMessageBytes, service: options.service },
          ),
      },
      {
        provide: NATS_CONNECTION,
        inject: [COMMON_SETTINGS],
        useFactory: (s: CommonSettings) =>
          connectNats(natsConnectionOptions(s, options.service), `${options.service}-js`, new NatsNamespace(s.natsNamespace)),
      },
      {
        provide: PG_POOL,
        inject: [COMMON_SETTINGS],
        useFactory: (s: CommonSettings) =>
          options.schema ? createPgPool(s.databaseUrl, { max: 1, name: 'HealthPool' }) : null,
      },
      {
        provide: OutboxRelay,
        inject: [COMMON_SETTINGS, NATS_CONNECTION],
        useFactory: (s: CommonSettings, nc: NatsConnection) =>
          options.schema ? new OutboxRelay(s.databaseUrl, options.schema, nc) : null,
      },
      {
        provide: PlatformLifecycle,
        inject: [RpcClient, NATS_CONNECTION, OutboxRelay, PG_POOL],
        useFactory: (rpc: RpcClient, nc: NatsConnection, relay: OutboxRelay | null, pool: pg.Pool | null) =>
          new PlatformLifecycle(rpc, nc, relay, pool, options.schema),
      },
      {
        provide: HEALTH_CHECKS,
        inject: [NATS_CONNECTION, PG_POOL],
        useFactory: (nc: NatsConnection, pool: pg.Pool | null): HealthCheck[] => [
          { name: 'nats', check: async () => !nc.isClosed() },
          ...(pool ? [{ name: 'postgres', check: async () => (await pool.query('SELECT 1')).rowCount === 1 }] : []),
        ],
      },
      ...extraHealthChecks,
    ];
    return {
      module: PlatformModule,
      controllers: [healthController(options.service)],
      providers,
      exports: [SERVICE_NAME, COMMON_SETTINGS, RpcClient, NATS_CONNECTION, OutboxRelay, HEALTH_CHECKS],
    };
  }
}
