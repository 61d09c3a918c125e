import { Injectable, type CanActivate, type ExecutionContext, type Type } from '@nestjs/common';
import { DomainError } from '@cairn/contracts';
import type { FastifyRequest } from 'fastify';
import { UNIMPLEMENTED } from './openapi-document.js';
import { readCommittedDocument, type OpenApiDocument } from './openapi-files.js';
import { matchGiteaPath } from './gitea-paths.js';
import { collectRoutes } from './route-table.js';

/** 422 for a documented Gitea query parameter Cairn does not implement: `archived=true` must not silently list all. */
@Injectable()
export class GiteaQueryGuard implements CanActivate {
  private readonly doc: OpenApiDocument = readCommittedDocument();
  private readonly refusedByHandler = new Map<object, string[]>();
  private readonly seenControllers = new Set<Type<unknown>>();

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const refused = this.refusedFor(context.getClass(), context.getHandler());
    if (!refused.length) return true;
    const query = (context.switchToHttp().getRequest<FastifyRequest>().query ?? {}) as Record<string, unknown>;
    const sent = refused.filter((name) => Object.hasOwn(query, name));
    if (sent.length) {
      const errors = sent.map((name) => `query parameter ${name} is not implemented by Cairn`);
      throw DomainError.unprocessable(errors.join('; '), errors);
    }
    return true;
  }

  private refusedFor(controller: Type<unknown>, handler: object): string[] {
    if (!this.seenControllers.has(controller)) {
      this.seenControllers.add(controller);
      for (const route of collectRoutes([controller])) {
        const path = matchGiteaPath(route.path, route.method, this.doc.paths);
        const op = path ? this.doc.paths[path][route.method] : undefined;
        const names = (op?.parameters ?? []).filter((p) => p.in === 'query' && p[UNIMPLEMENTED]).map((p) => p.name);
        this.refusedByHandler.set(route.fn, [...(this.refusedByHandler.get(route.fn) ?? []), ...names]);
      }
    }
    return this.refusedByHandler.get(handler) ?? [];
  }
}
