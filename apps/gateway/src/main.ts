import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  COMMON_SETTINGS, CORRELATION_HEADER, ConfigError, JsonLogger, RpcClient, commonSettings, loadOpsAddress, loadSettings,
  natsConnectionOptions, requireProductionSecrets, startAppOps, startTracing, traceHttpExchange, withCorrelationId,
  withTraceContext, type CommonSettings, type OpsAddress, type Tracing,
} from '@cairn/platform';
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppModule } from './app.module.js';
import { gatewaySettingsSpec, loadGatewaySettings } from './config/gateway-settings.js';
import { ApiErrorFilter } from './http/api-error.filter.js';
import { bodyLimits, registerJsonBodyParser } from './http/json-body.js';
import { registerHealthRoutes } from './health/health.routes.js';
import { instrument, metricsRegistry } from './health/metrics.js';
import { registerOpenApiRoute } from './openapi/openapi.routes.js';
import { registerGitHttpRoutes } from './git-http/git-http.routes.js';
import { registerPackagesRoutes } from './packages/packages.proxy.js';
import { registerRunnerProtocolRoutes } from './runner-protocol/runner-protocol.proxy.js';
import { registerWebRoutes } from './web/web.routes.js';

async function main(): Promise<void> {
  const logger = new JsonLogger('gateway');
  let gatewaySettings;
  let common: CommonSettings;
  let ops: OpsAddress;
  let tracing: Tracing | undefined;
  try {
    common = loadSettings(commonSettings);
    tracing = startTracing('gateway');
    gatewaySettings = loadGatewaySettings();
    requireProductionSecrets([commonSettings, gatewaySettingsSpec]);
    natsConnectionOptions(common, 'gateway'); // contradictory or unreadable NATS credentials: refuse here (exit 78)
    ops = loadOpsAddress('gateway');
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`gateway: ${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }

  const adapter = new FastifyAdapter({
    // Gitea strips trailing slashes and collapses `//` before routing.
    // File paths and branch names are path parameters: allow long ones (Fastify's default is 100 characters).
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 4096 },
    // Errors Fastify raises before routing (bad URL encoding, …) get our error body too.
    frameworkErrors: (error: FastifyError, _req: FastifyRequest, reply: FastifyReply) => {
      const status = (error as { statusCode?: number }).statusCode ?? 400;
      void reply.status(status).send({ message: error.message, url: `${common.rootUrl}api/swagger` });
    },
    // The default limit; the file-content routes get theirs from registerJsonBodyParser.
    bodyLimit: gatewaySettings.maxBodyBytes,
    // The client's address behind trusted reverse proxies (X-Forwarded-For): identity-service throttles per address.
    trustProxy: gatewaySettings.trustedProxies.includes('*') ? true : gatewaySettings.trustedProxies,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers[CORRELATION_HEADER];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    },
  });
  // Nest's own body parsers (JSON, and form-encoded bodies a cross-site form could send) stay off: registerJsonBodyParser
  // is the one place bodies are parsed.
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, adapter, { logger, bodyParser: false });
  app.setGlobalPrefix('api/v1');
  app.enableShutdownHooks();

  // The probes' and Prometheus's own port; the public /healthz, /readyz and /metrics below stay as Gitea has them.
  const opsServer = await startAppOps(app, 'gateway', ops, [], [metricsRegistry]);
  const fastify = app.getHttpAdapter().getInstance();
  // Stops through Nest's shutdown hooks (SIGTERM/SIGINT): in-flight requests finish, then the clients close.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      opsServer.markStopping();
      logger.log(`${signal}: stopping gateway`);
    });
  }
  fastify.addHook('onClose', async () => {
    await opsServer.close();
    await tracing?.shutdown();
    logger.log('gateway stopped');
  });
  instrument(fastify);
  // Every request runs with its correlation id bound, and echoes it back.
  fastify.addHook('onRequest', (req, reply, done) => {
    reply.header(CORRELATION_HEADER, req.id);
    // A server span per request (while tracing): RPC calls and internal HTTP made for it are its children.
    const span = traceHttpExchange(req.raw, reply.raw, () => req.routeOptions.url);
    withTraceContext(span?.context, () => withCorrelationId(String(req.id), done));
  });
  // After the correlation hook: a body refused at once (413/411) still carries its request id.
  registerJsonBodyParser(fastify, bodyLimits(gatewaySettings, common.attachmentMaxSizeMb));
  const errorFilter = new ApiErrorFilter(app.get(COMMON_SETTINGS));
  fastify.setErrorHandler((err, req, reply) => {
    const { status, body } = errorFilter.toResponse(err, req);
    void reply.status(status).send(body);
  });
  registerHealthRoutes(fastify, app.get(RpcClient), {
    enabled: gatewaySettings.metricsEnabled,
    token: gatewaySettings.metricsToken,
  });
  if (gatewaySettings.metricsEnabled && !gatewaySettings.metricsToken && gatewaySettings.httpAddr !== '127.0.0.1') {
    logger.warn('/metrics is open to anyone who reaches the HTTP port: set [metrics] TOKEN');
  }
  registerOpenApiRoute(fastify, common.rootUrl);
  registerGitHttpRoutes(fastify, app);
  registerRunnerProtocolRoutes(fastify, app);
  registerPackagesRoutes(fastify, app);
  registerWebRoutes(fastify, app);

  await app.listen(common.httpPort, gatewaySettings.httpAddr);
  opsServer.markStarted();
  logger.log(
    `gateway listening on ${common.rootUrl} (${gatewaySettings.httpAddr}:${common.httpPort}; ops on ${ops.host}:${opsServer.port})`,
  );
}

main().catch((err) => {
  process.stderr.write(`gateway failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
