import type { Type } from '@nestjs/common';
import { collectRoutes, type ApiRoute } from './route-table.js';
import { schemaFromClass, type Schema } from './schema-from-class.js';
import { CAIRN_EXTENSIONS } from './cairn-extensions.js';
import { CAIRN_VERSION } from '../version.js';

/** The parts of Gitea's Swagger 2.0 description we reuse. */
export interface GiteaDescription {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  definitions: Record<string, Schema>;
  responses: Record<string, Record<string, unknown>>;
  securityDefinitions?: Record<string, unknown>;
  security?: unknown[];
}

/**
 * Builds `/swagger.v1.json` from the code: every route the controllers declare is listed. Where Gitea has the same
 * operation, its description (parameters, responses, schemas) is used so that names, types and status codes follow
 * Gitea; Cairn's additions to Gitea's objects are merged in from {@link CAIRN_EXTENSIONS}; routes Gitea lacks are
 * described from their contract classes.
 */
export function buildOpenApiDocument(controllers: Type<unknown>[], gitea: GiteaDescription): Record<string, unknown> {
  const routes = collectRoutes(controllers);
  const paths: Record<string, Record<string, unknown>> = {};
  const definitions: Record<string, Schema> = {};
  const responses: Record<string, unknown> = {};
  const usedRefs = new Set<string>();

  for (const route of routes) {
    const giteaOp = gitea.paths[route.path]?.[route.method];
    const op = giteaOp ? structuredClone(giteaOp) : describeOwnRoute(route, definitions);
    const extension = CAIRN_EXTENSIONS.operations[`${route.method.toUpperCase()} ${route.path}`];
    if (extension) extension(op);
    collectRefs(op, usedRefs);
    (paths[route.path] ??= {})[route.method] = op;
  }

  // Pull in every Gitea definition and response the operations reference, transitively.
  const queue = [...usedRefs];
  const done = new Set<string>();
  while (queue.length) {
    const ref = queue.pop()!;
    if (done.has(ref)) continue;
    done.add(ref);
    const [, kind, name] = ref.split('/');
    const source = kind === 'definitions' ? gitea.definitions[name] : gitea.responses[name];
    if (!source) continue;
    const copy = structuredClone(source);
    if (kind === 'definitions') definitions[name] = copy as Schema;
    else responses[name] = copy;
    const more = new Set<string>();
    collectRefs(copy, more);
    queue.push(...more);
  }
  for (const [name, patch] of Object.entries(CAIRN_EXTENSIONS.definitions)) {
    if (definitions[name]) patch(definitions[name]);
  }

  return {
    swagger: '2.0',
    info: {
      title: 'Cairn API',
      description: 'Gitea-compatible API of Cairn. Operations shared with Gitea keep its names, shapes and status codes.',
      version: CAIRN_VERSION,
      license: { name: 'MIT' },
    },
    basePath: '/api/v1',
    consumes: ['application/json', 'text/plain'],
    produces: ['application/json', 'text/html'],
    schemes: ['https', 'http'],
    paths: sortKeys(paths),
    definitions: sortKeys(definitions),
    responses: sortKeys(responses),
    securityDefinitions: gitea.securityDefinitions ?? {},
    security: gitea.security ?? [],
  };
}

function describeOwnRoute(route: ApiRoute, definitions: Record<string, Schema>): Record<string, unknown> {
  const parameters: Record<string, unknown>[] = route.pathParams.map((name) => ({
    type: /^(id|index|runner_id|delivery_id)$/.test(name) ? 'integer' : 'string',
    name,
    in: 'path',
    required: true,
  }));
  if (route.queryType && route.queryType !== Object) {
    const { schema } = schemaFromClass(route.queryType);
    for (const [name, prop] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
      parameters.push({ name, in: 'query', ...prop });
    }
  }
  if (route.bodyType && route.bodyType !== Object) {
    const defName = route.bodyType.name;
    definitions[defName] ??= schemaFromClass(route.bodyType).schema;
    parameters.push({ name: 'body', in: 'body', schema: { $ref: `#/definitions/${defName}` } });
  }
  const status = route.method === 'post' ? '201' : route.method === 'delete' || route.method === 'put' ? '204' : '200';
  return {
    produces: ['application/json'],
    tags: [route.path.split('/')[1] ?? 'misc'],
    operationId: `cairn${route.controller.replace(/Controller$/, '')}${route.handler[0].toUpperCase()}${route.handler.slice(1)}`,
    'x-cairn-extension': true,
    ...(parameters.length ? { parameters } : {}),
    responses: { [status]: { description: 'success' }, '404': { $ref: '#/responses/notFound' } },
  };
}

function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) value.forEach((v) => collectRefs(v, into));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') into.add(v.replace(/^#/, ''));
      else collectRefs(v, into);
    }
  }
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
}
