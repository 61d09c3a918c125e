/**
 * Request generators for the fuzz suite, derived from the published API description
 * (`apps/gateway/openapi/swagger.v1.json`): one `fast-check` arbitrary per operation that draws its path parameters,
 * query parameters and JSON body from the documented schema — mostly well-formed, sometimes the wrong type, odd
 * strings (NUL, lone surrogates, `..`, `-x`, very long), huge or negative numbers — and, through `realValues`, the
 * names and ids of real objects, so that a share of the requests reach existing repositories, issues and hooks.
 *
 * Bounds (what other findings own, kept out of here on purpose): bodies nest at most {@link MAX_DEPTH} levels and stay
 * a few kilobytes (deep nesting and >1 MiB bodies are finding 10/2); bodies are always sent as JSON (form bodies are
 * finding 8).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';

type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  additionalProperties?: Schema | boolean;
  maximum?: number;
  minimum?: number;
};
type Parameter = Schema & { name: string; in: 'path' | 'query' | 'body' | 'header' | 'formData'; schema?: Schema };
type Operation = { operationId?: string; parameters?: Parameter[]; consumes?: string[] };
type Doc = { basePath: string; paths: Record<string, Record<string, Operation>>; definitions: Record<string, Schema> };

export const OPENAPI_FILE = resolve(import.meta.dirname, '../../apps/gateway/openapi/swagger.v1.json');

/** How deep generated JSON values nest (finding 10 — deeply nested JSON — is another engineer's and tested there). */
export const MAX_DEPTH = 4;

export interface FuzzOperation {
  method: string;
  /** The documented template, e.g. `/repos/{owner}/{repo}/issues/{index}`. */
  template: string;
  parameters: Parameter[];
}

/** One generated request: a path below `/api/v1` (already encoded) and an optional body (a JSON value or raw text). */
export interface FuzzRequest {
  method: string;
  path: string;
  body?: { json: unknown } | { raw: string };
}

/**
 * Real names and ids by path-parameter name (`owner`, `repo`, `index`, `id`, …): what the generators mix in with
 * invented values. A function, so that it reads the fixtures as they are when a route's requests are drawn.
 */
export type RealValues = (param: string, template: string) => (string | number)[];

export function loadDocument(): Doc {
  return JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Doc;
}

/** Every documented operation, in document order. */
export function fuzzOperations(doc: Doc = loadDocument()): FuzzOperation[] {
  return Object.entries(doc.paths).flatMap(([template, ops]) =>
    Object.entries(ops)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), template, parameters: op.parameters ?? [] })),
  );
}

/** Strings that have broken parsers, SQL, git and path handling elsewhere. */
const NASTY_STRINGS = [
  '', ' ', '-x', '--upload-pack=touch /tmp/x', '.', '..', '../../etc/passwd', '..%2f..%2f', '%00', '\u0000', 'a\u0000b',
  '\ud800', 'x\udfffy', '🙂', 'Ω≈ç√', '\n', 'a\r\nX-Injected: 1', "'; DROP TABLE users; --", '{{7*7}}', '${jndi:x}',
  '\\', '/', '//', 'refs/heads/main', 'HEAD', 'HEAD~1', '@{-1}', 'main..feature', 'a:b', '*', '?', '#', '~', 'null',
  'undefined', 'true', '0', '-1', '1e309', 'NaN', '9223372036854775808', 'a'.repeat(256), 'ä'.repeat(300),
];

const NASTY_NUMBERS: (number | string)[] = [0, -1, 1, 2 ** 31, 2 ** 31 - 1, -(2 ** 31), 2 ** 53, Number.MAX_SAFE_INTEGER, 1.5, 1e21];

/** Strings: short random text (full Unicode, lone surrogates included), the nasty list, and longer runs (≤ 4 KB). */
export function stringArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 24 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
    { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 200, maxLength: 4_000 }) },
  );
}

function integerArb(schema: Schema): fc.Arbitrary<number | string> {
  const inRange =
    schema.minimum !== undefined || schema.maximum !== undefined
      ? fc.integer({ min: Math.max(schema.minimum ?? -(2 ** 31), -(2 ** 31)), max: Math.min(schema.maximum ?? 2 ** 31, 2 ** 31) })
      : fc.integer({ min: -3, max: 200 });
  return fc.oneof({ weight: 4, arbitrary: inRange }, { weight: 1, arbitrary: fc.constantFrom(...NASTY_NUMBERS) });
}

/** Any small JSON value of the wrong kind (what a confused or hostile client sends instead of the documented type). */
function junkArb(depth: number): fc.Arbitrary<unknown> {
  return fc.jsonValue({ maxDepth: Math.max(0, Math.min(2, MAX_DEPTH - depth)) });
}

function resolveRef(doc: Doc, schema: Schema): Schema {
  let s = schema;
  for (let i = 0; s.$ref && i < 10; i++) s = doc.definitions[s.$ref.replace('#/definitions/', '')] ?? {};
  if (s.allOf) s = Object.assign({}, ...s.allOf.map((part) => resolveRef(doc, part)));
  return s;
}

/** A value for a schema: mostly of the documented type, sometimes junk (`wrongRate` in 10). */
export function valueArb(doc: Doc, schema: Schema, depth = 0, wrongRate = 1): fc.Arbitrary<unknown> {
  const s = resolveRef(doc, schema);
  const right = rightValueArb(doc, s, depth);
  if (wrongRate <= 0) return right;
  return fc.oneof({ weight: 10 - wrongRate, arbitrary: right }, { weight: wrongRate, arbitrary: junkArb(depth) });
}

function rightValueArb(doc: Doc, s: Schema, depth: number): fc.Arbitrary<unknown> {
  if (s.enum?.length) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...s.enum) }, { weight: 1, arbitrary: stringArb() });
  switch (s.type) {
    case 'integer':
    case 'number':
      return integerArb(s);
    case 'boolean':
      return fc.boolean();
    case 'string':
      return s.format === 'date-time'
        ? fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), stringArb())
        : stringArb();
    case 'array':
      if (depth >= MAX_DEPTH) return fc.constant([]);
      return fc.array(valueArb(doc, s.items ?? {}, depth + 1), { maxLength: 4 });
    default:
      if (depth >= MAX_DEPTH) return fc.constant({});
      if (s.properties) return objectArb(doc, s, depth);
      return fc.dictionary(stringArb(), stringArb(), { maxKeys: 4 });
  }
}

/** An object of the schema's properties: the required ones nearly always, the others sometimes, plus a stray key. */
function objectArb(doc: Doc, s: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = s.properties ?? {};
  const model = Object.fromEntries(Object.entries(props).map(([k, p]) => [k, valueArb(doc, p, depth + 1)]));
  const required = (s.required ?? []).filter((k) => k in props);
  return fc
    .tuple(
      fc.record(model, { requiredKeys: [] }),
      fc.record(Object.fromEntries(required.map((k) => [k, model[k]]))),
      fc.boolean(),
      fc.option(fc.tuple(stringArb(), junkArb(depth)), { freq: 8 }),
    )
    .map(([optional, req, keepRequired, extra]) => {
      const out: Record<string, unknown> = { ...optional, ...(keepRequired || required.length === 0 ? req : {}) };
      if (extra) out[extra[0]] = extra[1];
      return out;
    });
}

/** A path parameter: a real value (when there is one) or an invented one of the documented type. */
function pathParamArb(p: Parameter, template: string, real: RealValues): fc.Arbitrary<string> {
  const invented: fc.Arbitrary<unknown> =
    p.type === 'integer' ? fc.oneof(integerArb(p), stringArb()) : fc.oneof({ weight: 3, arbitrary: stringArb() }, { weight: 1, arbitrary: integerArb(p) });
  const candidates = real(p.name, template);
  const value = candidates.length
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...candidates) }, { weight: 2, arbitrary: invented })
    : invented;
  // `filepath` and branch names may contain slashes (the routes take the rest of the path): keep them as segments.
  const multiSegment = ['filepath', 'branch', 'base', 'head', 'sha'].includes(p.name);
  return value.map((v) => {
    const text = String(v);
    const encoded = multiSegment ? text.split('/').map(encodeSegment).join('/') : encodeSegment(text);
    // An empty segment would turn the request into another route: what a client sends for "" is `%20`-free nothing.
    return encoded === '' ? '%20' : encoded;
  });
}

function encodeSegment(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    // A lone surrogate cannot be encoded as UTF-8: send its escape as text (what a client would have to do).
    return encodeURIComponent(JSON.stringify(s).slice(1, -1));
  }
}

function queryValueArb(doc: Doc, p: Parameter): fc.Arbitrary<string[]> {
  const one = valueArb(doc, p.type === 'array' ? (p.items ?? {}) : p, MAX_DEPTH - 1, 2).map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? ''));
  return p.type === 'array' ? fc.array(one, { maxLength: 3 }) : one.map((v) => [v]);
}

/** Malformed JSON texts (the parser must say 400, never 500). */
const BROKEN_JSON = ['{', '[1,', '{"a":}', 'nul', '"unterminated', '{"a":1}{"b":2}', '\u0000', '[]'.repeat(3), '1e99999'];

/** The generator of requests for one operation. */
export function requestArb(doc: Doc, op: FuzzOperation, real: RealValues): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const bodyParam = op.parameters.find((p) => p.in === 'body');
  const path = fc.tuple(...pathParams.map((p) => pathParamArb(p, op.template, real))).map((values) => {
    let out = op.template;
    pathParams.forEach((p, i) => (out = out.replace(`{${p.name}}`, values[i])));
    return out;
  });
  const query = fc
    .tuple(...queryParams.map((p) => fc.option(queryValueArb(doc, p), { freq: 2 })))
    .map((values) => {
      const search = new URLSearchParams();
      queryParams.forEach((p, i) => {
        for (const v of values[i] ?? []) search.append(p.name, safeText(v));
      });
      const text = search.toString();
      return text ? `?${text}` : '';
    });
  const body: fc.Arbitrary<FuzzRequest['body']> = bodyParam?.schema
    ? fc.oneof(
        { weight: 7, arbitrary: valueArb(doc, bodyParam.schema, 0, 0).map((json) => ({ json })) },
        { weight: 1, arbitrary: junkArb(0).map((json) => ({ json })) },
        { weight: 1, arbitrary: fc.constantFrom(...BROKEN_JSON).map((raw) => ({ raw })) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      )
    : fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: junkArb(0).map((json) => ({ json })) });
  // A GET request cannot carry a body (fetch refuses, and HTTP gives it no meaning).
  const withBody = op.method !== 'GET';
  return fc
    .tuple(path, query, body)
    .map(([p, q, b]) => ({ method: op.method, path: `${p}${q}`, ...(b && withBody ? { body: b } : {}) }));
}

/** URLSearchParams needs well-formed text: a lone surrogate becomes its JSON escape. */
function safeText(s: string): string {
  return s.isWellFormed() ? s : JSON.stringify(s).slice(1, -1);
}
