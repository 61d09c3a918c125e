import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { MicroserviceOptions } from '@nestjs/microservices';
import type { INestApplicationContext, INestMicroservice, Type } from '@nestjs/common';
import { commonSettings, ConfigError, loadSettings, requireProductionSecrets, type SettingsSpec } from '../config/settings.js';
import { JsonLogger } from '../logging/logger.js';
import { DomainErrorFilter } from '../rpc/domain-error.filter.js';
import { createRpcValidationPipe } from '../rpc/validation.js';
import { RpcCorrelationInterceptor } from '../rpc/correlation.interceptor.js';
import { RpcDeadlineInterceptor } from '../rpc/rpc-deadline.js';
import { RpcTracingInterceptor } from '../rpc/tracing.interceptor.js';
import { RpcClient } from '../rpc/rpc-client.js';
import { NatsNamespace } from '../nats/nats-namespace.js';
import { NamespacedServerNats } from '../rpc/namespaced-server-nats.js';
import { natsConnectionOptions, type NatsConnectOptions } from '../nats/nats-connection-options.js';
import { healthSubject } from '@cairn/contracts';
import { loadOpsAddress, startAppOps } from '../ops/app-ops.js';
import type { OpsAddress } from '../ops/ops-settings.js';
import { RpcMetricsInterceptor } from '../rpc/rpc-metrics.interceptor.js';
import { startTracing, type Tracing } from '../tracing/tracing.js';

/** `listen()` resolves before the NATS server has the subscriptions: one round trip to our own health subject proves them. */
async function untilSubscribed(app: INestApplicationContext, name: string): Promise<void> {
  const rpc = app.get(RpcClient);
  for (let i = 0; i < 100; i++) {
    try {
      await rpc.send(healthSubject(name), {}, { timeoutMs: 1_000 });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Timing is outermost so refusals count too; work whose deadline passed is refused, not started. */
export function installRpcPipeline(app: INestMicroservice): void {
  app.useGlobalPipes(createRpcValidationPipe());
  app.useGlobalFilters(new DomainErrorFilter());
  app.useGlobalInterceptors(
    new RpcMetricsInterceptor(), new RpcTracingInterceptor(), new RpcCorrelationInterceptor(), new RpcDeadlineInterceptor(),
  );
}

export interface BootstrapOptions {
  /** The NATS queue group is `<name>-service` (in the namespace). */
  name: string;
  module: Type<unknown>;
  /** Throw ConfigError to refuse. */
  validateSettings?: () => void;
  /** Their secret settings are required in `RUN_MODE=prod` (the common ones always). */
  settingsSpecs?: SettingsSpec[];
  afterStart?: (app: INestApplicationContext) => Promise<(() => Promise<void>) | void>;
}

/** Replicas share the load through the service's queue group. */
export async function bootstrapService(options: BootstrapOptions): Promise<void> {
  const logger = new JsonLogger(options.name);
  let settings;
  let nats: NatsConnectOptions;
  let ops: OpsAddress;
  let tracing: Tracing | undefined;
  try {
    settings = loadSettings(commonSettings);
    // First: spans of everything after (Prisma's hook included) need the tracer in place.
    tracing = startTracing(options.name);
    options.validateSettings?.();
    requireProductionSecrets([commonSettings, ...(options.settingsSpecs ?? [])]);
    nats = natsConnectionOptions(settings, options.name);
    ops = loadOpsAddress(options.name);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${options.name}: ${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }

  const namespace = new NatsNamespace(settings.natsNamespace);
  const server = new NamespacedServerNats(namespace, {
    ...nats,
    queue: `${options.name}-service`,
    name: namespace.name(`${options.name}-service`),
    maxReconnectAttempts: -1,
  }, { maxMessageBytes: settings.rpcMaxMessageBytes, service: options.name });
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(options.module, { strategy: server, logger });
  installRpcPipeline(app);

  // Up before the app listens: liveness answers during a slow start, readiness says "starting" until the end.
  const opsServer = await startAppOps(app, options.name, ops, [
    { name: 'nats-queue-group', check: () => server.answering() },
  ]);
  await app.listen();
  await untilSubscribed(app, options.name);
  const stopExtra = await options.afterStart?.(app);
  opsServer.markStarted();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: stopping ${options.name}-service`);
    opsServer.markStopping();
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      if (stopExtra) await stopExtra();
      await app.close();
      await opsServer.close();
      await tracing?.shutdown();
      logger.log(`${options.name}-service stopped`);
    } finally {
      process.exit(0);
    }
  };
  // Before "ready": a supervisor may stop the app the moment it reads that line.
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  logger.log(
    `${options.name}-service ready (queue group ${namespace.name(`${options.name}-service`)}; ops on ${ops.host}:${opsServer.port})`,
  );
}
