import type { Type } from '@nestjs/common';
import { collectRoutes, type ApiRoute } from './route-table.js';
import { schemaFromClass, type Schema } from './schema-from-class.js';
import { CAIRN_EXTENSIONS } from './cairn-extensions.js';
import { matchGiteaPath } from './gitea-paths.js';
import { CAIRN_VERSION } from '../version.js';

type Operation = Record<string, unknown>;
type Parameter = { name: string; in: string; [k: string]: unknown };

/** The facts kept from Gitea's Swagger 2.0 description (`apps/gateway/openapi/gitea-facts.json`). */
export interface GiteaFacts {
  source?: Record<string, string>;
  paths: Record<string, Record<string, Operation>>;
  definitions: Record<string, Schema>;
  responses: Record<string, Record<string, unknown>>;
  securityDefinitions?: Record<string, unknown>;
  security?: unknown[];
}

/** Marks a Gitea query parameter the operation does not implement: the gateway refuses it with 422. */
export const UNIMPLEMENTED = 'x-cairn-unimplemented';

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK', '201': 'Created', '202': 'Accepted', '204': 'No Content', '400': 'Bad Request', '401': 'Unauthorized',
  '403': 'Forbidden', '404': 'Not Found', '409': 'Conflict', '413': 'Payload Too Large', '422': 'Unprocessable Entity',
  '423': 'Locked',
};

/** Gitea's facts where Gitea has the operation, {@link CAIRN_EXTENSIONS} for deviations, `cairn*` ids for the rest. */
export function buildOpenApiDocument(controllers: Type<unknown>[], gitea: GiteaFacts): Record<string, unknown> {
  const routes = collectRoutes(controllers);
  const paths: Record<string, Record<string, unknown>> = {};
  const definitions: Record<string, Schema> = {};
  const responses: Record<string, unknown> = {};
  const usedRefs = new Set<string>();

  for (const route of routes) {
    const giteaPath = matchGiteaPath(route.path, route.method, gitea.paths);
    const giteaOp = giteaPath ? gitea.paths[giteaPath][route.method] : undefined;
    const op = giteaOp ? describeGiteaRoute(route, structuredClone(giteaOp)) : describeOwnRoute(route, definitions);
    const extension = CAIRN_EXTENSIONS.operations[`${route.method.toUpperCase()} ${route.path}`];
    if (extension) extension(op);
    declareGatewayRefusals(op);
    collectRefs(op, usedRefs);
    (paths[giteaPath ?? route.path] ??= {})[route.method] = op;
  }

  // Pull in every Gitea definition and response the operations reference, transitively.
  const queue = [...usedRefs];
  const done = new Set<string>();
  while (queue.length) {
    const ref = queue.pop()!;
    if (done.has(ref)) continue;
    done.add(ref);
    const [, kind, name] = ref.split('/');
    // Body schemas of Cairn's additions, described from their contract classes above.
    if (kind === 'definitions' && definitions[name]) continue;
    const source = kind === 'definitions' ? (CAIRN_EXTENSIONS.ownDefinitions[name] ?? gitea.definitions[name]) : gitea.responses[name];
    if (!source) throw new Error(`${ref} is referenced but neither Gitea's facts nor Cairn's extensions define it`);
    const copy = structuredClone(source);
    // Swagger 2.0 requires a description on every response; the facts keep none (they hold no prose).
    if (kind === 'definitions') definitions[name] = copy as Schema;
    else responses[name] = { description: name, ...copy };
    const more = new Set<string>();
    collectRefs(copy, more);
    queue.push(...more);
  }
  for (const [name, patch] of Object.entries(CAIRN_EXTENSIONS.definitions)) {
    if (definitions[name]) patch(definitions[name]);
  }
  markGoNilFields(definitions, paths);

  return {
    swagger: '2.0',
    info: {
      title: 'Cairn API',
      description:
        'Gitea-compatible API of Cairn. Operations shared with Gitea keep its ids, parameters and shapes ' +
        `(${gitea.source?.api ?? 'Gitea'}); routes Gitea lacks are marked x-cairn-extension.`,
      version: CAIRN_VERSION,
      license: { name: 'MIT' },
    },
    basePath: '/api/v1',
    // Request bodies are JSON: the gateway refuses any other type with 415 (as Gitea's binding refuses it).
    consumes: ['application/json'],
    produces: ['application/json', 'text/html'],
    schemes: ['https', 'http'],
    paths: sortKeys(paths),
    definitions: sortKeys(definitions),
    responses: sortKeys(responses),
    securityDefinitions: gitea.securityDefinitions ?? {},
    security: gitea.security ?? [],
  };
}

/** Query parameter names the route's handler reads: its `@Query()` class's fields and its named `@Query('x')`s. */
export function implementedQuery(route: ApiRoute): Set<string> {
  const names = new Set(route.namedQuery);
  if (route.queryType && route.queryType !== Object) {
    for (const name of Object.keys(schemaFromClass(route.queryType).schema.properties as Schema)) names.add(name);
  }
  for (const name of CAIRN_EXTENSIONS.queryReadElsewhere[`${route.method.toUpperCase()} ${route.path}`] ?? []) {
    names.add(name);
  }
  return names;
}

function describeGiteaRoute(route: ApiRoute, op: Operation): Operation {
  const implemented = implementedQuery(route);
  for (const p of (op.parameters ?? []) as Parameter[]) {
    if (p.in === 'query' && !implemented.has(p.name)) p[UNIMPLEMENTED] = true;
  }
  const giteaResponses = (op.responses ?? {}) as Record<string, Record<string, unknown>>;
  const success = String(route.successStatus);
  const giteaSuccess = Object.keys(giteaResponses).filter((s) => s.startsWith('2'));
  const own: Record<string, unknown> = {};
  // Gitea's body for the success, under the status the handler really answers (one success status per route).
  for (const status of [success, ...route.otherSuccessStatuses.map(String)]) {
    const body = giteaResponses[status] ?? giteaResponses[giteaSuccess[0]] ?? {};
    // Gitea documents no body (1.25's variable creation answers 201 without one): say so, as its `empty` response.
    own[status] = status !== '204' && !body.schema && !body.$ref ? { $ref: '#/responses/empty' } : withDescription(status, body);
  }
  if (!giteaSuccess.includes(success)) op['x-cairn-differs'] = `Gitea answers ${giteaSuccess.join('/') || 'no success'}`;
  for (const [status, res] of Object.entries(giteaResponses)) {
    if (!status.startsWith('2')) own[status] = withDescription(status, res);
  }
  op.responses = own;
  return op;
}

/** Refusals around any handler (401, 404, 400, 415, 422): Gitea answers them too but rarely describes them. */
function declareGatewayRefusals(op: Operation): void {
  const responses = op.responses as Record<string, unknown>;
  const params = (op.parameters ?? []) as Parameter[];
  const has = (where: string) => params.some((p) => p.in === where);
  const add = (status: string, ref: string) => {
    responses[status] ??= { $ref: `#/responses/${ref}` };
  };
  add('401', 'error');
  if (has('path')) add('404', 'notFound');
  if (has('path') || has('body')) add('400', 'error');
  if (has('body') || has('formData')) add('415', 'error');
  if (has('query') || has('body')) add('422', 'validationError');
  if (Array.isArray(op.produces) && !op.produces.some((t) => t === 'application/json' || t === '*/*')) op.produces = [...op.produces, 'application/json'];
}

function withDescription(status: string, res: Record<string, unknown>): Record<string, unknown> {
  return res.$ref ? res : { description: STATUS_TEXT[status] ?? status, ...res };
}

function describeOwnRoute(route: ApiRoute, definitions: Record<string, Schema>): Operation {
  const parameters: Record<string, unknown>[] = route.pathParams.map((name) => ({
    type: /^(id|index|runner_id|delivery_id|deliveryId)$/.test(name) ? 'integer' : 'string',
    name,
    in: 'path',
    required: true,
  }));
  for (const name of implementedQuery(route)) {
    const prop = route.queryType ? ((schemaFromClass(route.queryType).schema.properties ?? {}) as Record<string, Schema>)[name] : undefined;
    parameters.push({ name, in: 'query', ...(prop ?? { type: name === 'page' || name === 'limit' ? 'integer' : 'string' }) });
  }
  if (route.bodyType && route.bodyType !== Object) {
    const defName = route.bodyType.name;
    definitions[defName] ??= schemaFromClass(route.bodyType).schema;
    parameters.push({ name: 'body', in: 'body', schema: { $ref: `#/definitions/${defName}` } });
  }
  const key = `${route.method.toUpperCase()} ${route.path}`;
  const status = String(route.successStatus);
  const schema = CAIRN_EXTENSIONS.responses[key];
  if (schema === undefined && status !== '204') {
    throw new Error(`${key} is a Cairn addition without a response schema: add one to CAIRN_EXTENSIONS.responses`);
  }
  return {
    produces: ['application/json'],
    tags: [route.path.split('/')[1] ?? 'misc'],
    operationId: `cairn${route.controller.replace(/Controller$/, '')}${route.handler[0].toUpperCase()}${route.handler.slice(1)}`,
    'x-cairn-extension': true,
    ...(parameters.length ? { parameters } : {}),
    responses: {
      [status]: { description: STATUS_TEXT[status] ?? status, ...(schema ? { schema } : {}) },
      '404': { $ref: '#/responses/notFound' },
    },
  };
}

// Gitea's answers encode Go nil pointers and slices as `null` (no `omitempty`), which its description never says:
// answer definitions get `x-nullable`; request bodies keep their shapes (a client must not be told to send null).
function markGoNilFields(definitions: Record<string, Schema>, paths: Record<string, Record<string, unknown>>): void {
  const bodyRefs = new Set<string>();
  for (const methods of Object.values(paths)) {
    for (const op of Object.values(methods) as Operation[]) {
      for (const p of (op.parameters ?? []) as Parameter[]) if (p.in === 'body') collectRefs(p, bodyRefs);
    }
  }
  const queue = [...bodyRefs];
  while (queue.length) {
    const more = new Set<string>();
    collectRefs(definitions[queue.pop()!.split('/')[2]], more);
    for (const ref of more) {
      if (bodyRefs.has(ref)) continue;
      bodyRefs.add(ref);
      queue.push(ref);
    }
  }
  for (const [name, def] of Object.entries(definitions)) {
    if (bodyRefs.has(`/definitions/${name}`)) continue;
    const props = (def.properties ?? {}) as Record<string, Schema>;
    for (const [field, prop] of Object.entries(props)) {
      if (prop.$ref !== undefined || prop.type === 'object' || prop.type === 'array') props[field] = { ...prop, 'x-nullable': true };
    }
  }
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
