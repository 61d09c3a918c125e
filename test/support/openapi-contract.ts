import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { matchGiteaPath } from '../../apps/gateway/src/openapi/gitea-paths.js';

/**
 * Checks real responses against the published API description (`apps/gateway/openapi/swagger.v1.json`, whose
 * shapes come from Gitea's). Swagger 2.0 schemas are JSON Schema draft 4 with extensions; two adaptations:
 * `x-nullable` becomes a nullable type, and object/array fields may be `null` (Go encodes a nil pointer or slice as
 * `null`, so Gitea clients already accept it there).
 */
type Doc = {
  paths: Record<string, Record<string, { responses?: Record<string, { $ref?: string; schema?: unknown }> }>>;
  definitions: Record<string, unknown>;
  responses: Record<string, { schema?: unknown }>;
};

const doc = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../apps/gateway/openapi/swagger.v1.json'), 'utf8'),
) as Doc;

function adapt(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(adapt);
  if (!schema || typeof schema !== 'object') return schema;
  const s = { ...(schema as Record<string, unknown>) };
  for (const [k, v] of Object.entries(s)) if (k !== 'enum') s[k] = adapt(v);
  if (s.properties) {
    const props = s.properties as Record<string, Record<string, unknown>>;
    // `x-` keys are already gone from the adapted copies: read `x-nullable` from the original property.
    const originals = (schema as { properties?: Record<string, Record<string, unknown>> }).properties ?? {};
    for (const [name, p] of Object.entries(props)) {
      const xNullable = originals[name]?.['x-nullable'] === true;
      const nullable = xNullable || p.$ref !== undefined || p.type === 'object' || p.type === 'array';
      if (nullable) props[name] = { anyOf: [p, { type: 'null' }] };
    }
  }
  for (const k of Object.keys(s)) if (k.startsWith('x-')) delete s[k];
  // Swagger's `file` is a raw (non-JSON) body: nothing to validate as JSON.
  if (s.type === 'file') delete s.type;
  if (s.format === 'date-time' || s.format === 'email' || s.format === 'int64' || s.format === 'uint64') delete s.format;
  return s;
}

const ajv = new Ajv({ strict: false, allErrors: true });
const root = { $id: 'cairn', definitions: adapt(doc.definitions) as Record<string, unknown> };
ajv.addSchema(root);
const cache = new Map<string, ValidateFunction>();

function validatorFor(schema: unknown): ValidateFunction {
  const key = JSON.stringify(schema);
  let fn = cache.get(key);
  if (!fn) {
    const rewritten = JSON.parse(key.replaceAll('"#/definitions/', '"cairn#/definitions/'));
    fn = ajv.compile(adapt(rewritten) as object);
    cache.set(key, fn);
  }
  return fn;
}

/**
 * The documented path template of a route: the template itself, or the one of the same shape (the description uses
 * Gitea's parameter names, e.g. `{collaborator}` where the code says `:username`).
 */
export function documentedPath(method: string, path: string): string {
  const found = matchGiteaPath(path, method.toLowerCase(), doc.paths);
  if (!found) throw new Error(`${method} ${path} is not in the published API description`);
  return found;
}

/** Every operation of the published description, as `METHOD /template`. */
export function documentedOperations(): string[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
}

/** The one success status the description documents for an operation (the handler's). */
export function documentedSuccess(method: string, path: string): number {
  const op = doc.paths[documentedPath(method, path)][method.toLowerCase()];
  const codes = Object.keys(op.responses ?? {}).filter((s) => s.startsWith('2'));
  if (codes.length !== 1) throw new Error(`${method} ${path} documents ${codes.length} success statuses`);
  return Number(codes[0]);
}

/** The documented schema of a response, or undefined when the operation documents no body for that status. */
export function documentedSchema(method: string, path: string, status: number): unknown {
  const op = doc.paths[documentedPath(method, path)][method.toLowerCase()];
  const res = op.responses?.[String(status)];
  if (!res) throw new Error(`status ${status} is not documented for ${method} ${path}`);
  const resolved = res.$ref ? doc.responses[res.$ref.replace('#/responses/', '')] : res;
  return resolved?.schema;
}

/** Throws with the schema violations when `body` does not match the documented response. */
export function assertMatchesContract(method: string, path: string, status: number, body: unknown): void {
  const schema = documentedSchema(method, path, status);
  if (schema === undefined) return;
  // 205 Reset Content is a null-body status for fetch (the Fetch standard): whatever the server sends, callers get none.
  if (status === 205 && (body === '' || body === null || body === undefined)) return;
  const validate = validatorFor(schema);
  if (!validate(body)) {
    throw new Error(
      `${method} ${path} → ${status} does not match the API description:\n${ajv.errorsText(validate.errors, { separator: '\n' })}`,
    );
  }
}

/** Validates a value against a named definition (e.g. `User`). */
export function assertMatchesDefinition(name: string, value: unknown): void {
  const validate = validatorFor({ $ref: `#/definitions/${name}` });
  if (!validate(value)) {
    throw new Error(`value does not match definition ${name}:\n${ajv.errorsText(validate.errors, { separator: '\n' })}`);
  }
}
