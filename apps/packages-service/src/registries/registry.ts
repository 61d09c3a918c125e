import type { ActorDto, PackageType } from '@cairn/contracts';
import type { CommonSettings } from '@cairn/platform';
import type { FastifyInstance } from 'fastify';
import type { PackageAccess } from '../access/package-access.js';
import type { PackagesSettings } from '../config/packages-settings.js';
import type { PrismaService } from '../prisma/prisma.service.js';
import type { PackageStore } from '../store/package-store.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller the gateway authenticated (null: anonymous). */
    actor: ActorDto | null;
  }
}

/** What a registry's routes are given. */
export interface RegistryDeps {
  store: PackageStore;
  /** For the registries' own repositories (npm dist-tags, container images). */
  prisma: PrismaService;
  access: PackageAccess;
  settings: PackagesSettings;
  common: CommonSettings;
}

/**
 * One package registry (generic, npm, container): it registers its own routes, under Gitea's paths, on the internal
 * HTTP server. Request bodies arrive unparsed (`req.raw` streams them); nothing is buffered for them.
 */
export interface PackageRegistry {
  type: PackageType;
  routes(app: FastifyInstance, deps: RegistryDeps): void;
}
