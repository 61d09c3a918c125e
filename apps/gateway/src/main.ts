import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  COMMON_SETTINGS, CORRELATION_HEADER, ConfigError, JsonLogger, RpcClient, commonSettings, loadSettings,
  withCorrelationId, type CommonSettings,
} from '@cairn/platform';
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppModule } from './app.module.js';
import { loadGatewaySettings } from './config/gateway-settings.js';
import { ApiErrorFilter } from './http/api-error.filter.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { registerHealthRoutes } from './health/health.routes.js';
import { instrument } from './health/metrics.js';
import { registerOpenApiRoute } from './openapi/openapi.routes.js';
import { registerGitHttpRoutes } from './git-http/git-http.routes.js';
import { registerWebRoutes } from './web/web.routes.js';

async function main(): Promise<void> {
  const logger = new JsonLogger('gateway');
  let gatewaySettings;
  let common: CommonSettings;
  try {
    common = loadSettings(commonSettings);
    gatewaySettings = loadGatewaySettings();
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
    bodyLimit: gatewaySettings.maxBodyBytes,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers[CORRELATION_HEADER];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, adapter, { logger });
  app.setGlobalPrefix('api/v1');
  app.enableShutdownHooks();

  const fastify = app.getHttpAdapter().getInstance();
  registerJsonBodyParser(fastify, gatewaySettings.maxBodyBytes);
  instrument(fastify);
  // Every request runs with its correlation id bound, and echoes it back.
  fastify.addHook('onRequest', (req, reply, done) => {
    reply.header(CORRELATION_HEADER, req.id);
    withCorrelationId(String(req.id), done);
  });
  const errorFilter = new ApiErrorFilter(app.get(COMMON_SETTINGS));
  fastify.setErrorHandler((err, req, reply) => {
    const { status, body } = errorFilter.toResponse(err, req);
    void reply.status(status).send(body);
  });
  registerHealthRoutes(fastify, app.get(RpcClient));
  registerOpenApiRoute(fastify, common.rootUrl);
  registerGitHttpRoutes(fastify, app);
  registerWebRoutes(fastify, app);

  await app.listen(common.httpPort, '0.0.0.0');
  logger.log(`gateway listening on ${common.rootUrl} (port ${common.httpPort})`);
}

main().catch((err) => {
  process.stderr.write(`gateway failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
