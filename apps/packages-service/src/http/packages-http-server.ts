import { Logger, type INestApplicationContext } from '@nestjs/common';
import { INTERNAL_HEADERS, decodeActorHeader, PACKAGES_ACTOR_HEADER } from '@cairn/contracts';
import { COMMON_SETTINGS, internalTokenMatches, listenOn, type CommonSettings } from '@cairn/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import { PackageAccess } from '../access/package-access.js';
import { PACKAGES_SETTINGS, type PackagesSettings } from '../config/packages-settings.js';
import { REGISTRIES } from '../registries/registry-list.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { PackageStore } from '../store/package-store.js';
import type { RegistryDeps } from '../registries/registry.js';

const logger = new Logger('PackagesHttp');

/** Reached only through the gateway; bodies are never parsed here: each registry streams `req.raw` itself. */
export function buildPackagesHttpServer(deps: RegistryDeps): FastifyInstance {
  const app = Fastify({
    // File names and versions are validated by the registries (400 with a reason), not cut off by the router.
    routerOptions: { maxParamLength: 4096 },
    // Uploads can take long; headers must come promptly.
    requestTimeout: 0,
    logger: false,
  });
  app.decorateRequest('actor', null);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

  app.addHook('onRequest', async (req, reply) => {
    // A client that goes away before a registry reads the body must not be an unhandled 'error' event; the
    // registry's own pipeline still sees the failure.
    req.raw.on('error', () => undefined);
    if (!internalTokenMatches(req.headers[INTERNAL_HEADERS.token], deps.common.internalToken)) {
      return reply.code(403).type('text/plain; charset=utf-8').send('forbidden\n');
    }
    if (!deps.settings.enabled) {
      return reply.code(404).type('text/plain; charset=utf-8').send('package registries are disabled\n');
    }
    try {
      req.actor = decodeActorHeader(req.headers[PACKAGES_ACTOR_HEADER]);
    } catch {
      return reply.code(400).type('text/plain; charset=utf-8').send('malformed actor header\n');
    }
  });
  app.setErrorHandler((err, req, reply) => {
    logger.error(`${req.method} ${req.url.split('?', 1)[0]} failed: ${err instanceof Error ? err.stack : String(err)}`);
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.destroy();
      return;
    }
    void reply.code(500).type('text/plain; charset=utf-8').send('internal error\n');
  });
  for (const registry of REGISTRIES) registry.routes(app, deps);
  return app;
}

export async function startPackagesHttp(nest: INestApplicationContext): Promise<() => Promise<void>> {
  const common = nest.get<CommonSettings>(COMMON_SETTINGS);
  const settings = nest.get<PackagesSettings>(PACKAGES_SETTINGS);
  const app = buildPackagesHttpServer({ common, settings, store: nest.get(PackageStore), prisma: nest.get(PrismaService), access: nest.get(PackageAccess) });
  await app.ready();
  const port = await listenOn(app.server, common.packagesInternalPort, settings.internalHost);
  logger.log(`package registries listening on ${settings.internalHost}:${port}`);
  return () => app.close();
}
