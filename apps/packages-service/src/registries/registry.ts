import type { ActorDto, PackageType } from '@cairn/contracts';
import type { CommonSettings } from '@cairn/platform';
import type { FastifyInstance } from 'fastify';
import type { PackageAccess } from '../access/package-access.js';
import type { PackagesSettings } from '../config/packages-settings.js';
import type { PrismaService } from '../prisma/prisma.service.js';
import type { PackageStore } from '../store/package-store.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: ActorDto | null;
  }
}

export interface RegistryDeps {
  store: PackageStore;
  prisma: PrismaService;
  access: PackageAccess;
  settings: PackagesSettings;
  common: CommonSettings;
}

/** Registers its own routes on the internal HTTP server; bodies arrive unparsed (`req.raw`), never buffered. */
export interface PackageRegistry {
  type: PackageType;
  routes(app: FastifyInstance, deps: RegistryDeps): void;
}
