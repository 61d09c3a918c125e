// Prisma's WebAssembly schema engine in-process: the Prisma 7 CLI's `migrate` downloads a native engine from Prisma's
// binary host (unreachable in air-gapped clusters); the wasm build ships inside `prisma`.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as glue from '@prisma/schema-engine-wasm/schema_engine_bg';
import { quoteIdent, withDatabase } from './db.mjs';

const require = createRequire(import.meta.url);

/** @typedef {import('@prisma/schema-engine-wasm').SchemaEngine} SchemaEngine */

/**
 * The engine build the installed CLI ships, so our SQL is what `prisma` would generate (any `schema_engine*.wasm` on
 * file name drift).
 * @returns {string}
 */
export function findEngineWasm() {
  const buildDir = path.join(path.dirname(require.resolve('prisma/package.json')), 'build');
  const preferred = path.join(buildDir, 'schema_engine_bg.wasm');
  if (existsSync(preferred)) return preferred;
  const candidates = existsSync(buildDir)
    ? readdirSync(buildDir).filter((f) => /^schema[-_]engine.*\.wasm$/.test(f))
    : [];
  if (candidates.length === 1) return path.join(buildDir, candidates[0]);
  throw new Error(
    `cannot find the schema engine wasm in ${buildDir} (found: ${candidates.join(', ') || 'none'}); ` +
      'has the prisma CLI changed its layout?',
  );
}

/** @type {Promise<typeof glue.SchemaEngine> | undefined} */
let enginePromise;

/**
 * Node cannot `import` a .wasm file, so we compile it and wire the glue's exports as its imports (as
 * `schema_engine.js` would).
 * @returns {Promise<typeof glue.SchemaEngine>}
 */
export function loadSchemaEngine() {
  enginePromise ??= (async () => {
    const wasmPath = findEngineWasm();
    const module = await WebAssembly.compile(readFileSync(wasmPath));
    /** @type {Record<string, Record<string, Function>>} */
    const imports = {};
    const missing = [];
    for (const imp of WebAssembly.Module.imports(module)) {
      /** @type {any} */
      const fn = /** @type {any} */ (glue)[imp.name];
      if (typeof fn !== 'function') {
        missing.push(imp.name);
        continue;
      }
      // The engine arms timers (pool/idle timeouts) that would keep Node alive for ~60 s after we are done.
      const wrapped = imp.name.startsWith('__wbg_setTimeout_')
        ? (/** @type {any[]} */ ...args) => {
            const timer = fn(...args);
            timer?.unref?.();
            return timer;
          }
        : fn;
      (imports[imp.module] ??= {})[imp.name] = wrapped;
    }
    if (missing.length > 0) {
      throw new Error(
        `@prisma/schema-engine-wasm glue does not match ${wasmPath} (missing imports: ${missing.slice(0, 5).join(', ')}…); ` +
          'install the @prisma/schema-engine-wasm version matching the prisma CLI',
      );
    }
    const instance = await WebAssembly.instantiate(module, imports);
    glue.__wbg_set_wasm(instance.exports);
    /** @type {any} */ (instance.exports).__wbindgen_start();
    return glue.SchemaEngine;
  })();
  return enginePromise;
}

/**
 * Postgres `"char"` (oid 18, all over pg_catalog) is unknown to adapter-pg and fails the engine's introspection;
 * report it as text (25).
 * @param {any} queryable an adapter or transaction from adapter-pg
 */
function patchCharColumns(queryable) {
  if (typeof queryable.performIO !== 'function') {
    throw new Error('@prisma/adapter-pg internals changed (performIO missing); update tools/migrate/engine.mjs');
  }
  const performIO = queryable.performIO.bind(queryable);
  queryable.performIO = async (/** @type {any} */ query) => {
    const result = await performIO(query);
    for (const field of result?.fields ?? []) if (field.dataTypeID === 18) field.dataTypeID = 25;
    return result;
  };
}

/** @param {any} adapter a PrismaPgAdapter */
function patchAdapter(adapter) {
  patchCharColumns(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (/** @type {any[]} */ ...args) => {
    const tx = await startTransaction(...args);
    patchCharColumns(tx);
    return tx;
  };
  // adapter-pg splits scripts on ";" and autocommits each piece; one simple-protocol query runs the whole script as
  // one transaction.
  adapter.executeScript = async (/** @type {string} */ script) => {
    try {
      await adapter.underlyingDriver().query(script);
    } catch (error) {
      adapter.onError(error); // rethrows as DriverAdapterError, which the engine understands
    }
  };
  return adapter;
}

/**
 * One database + the service's schema; its own shadow-database factory because adapter-pg's ignores the database name
 * of a connection string.
 */
class ServiceAdapterFactory {
  provider = /** @type {const} */ ('postgres');
  adapterName = '@prisma/adapter-pg';

  /** @param {string} databaseUrl @param {string} schema Postgres schema the service lives in */
  constructor(databaseUrl, schema) {
    this.databaseUrl = databaseUrl;
    this.schema = schema;
    /** @type {Set<any>} */
    this.open = new Set();
    /** @type {Set<string>} */
    this.shadowDatabases = new Set();
    /** @type {unknown} */
    this.lastError = undefined;
  }

  /** @param {string} url */
  async #connectTo(url) {
    const factory = new PrismaPg(
      // Unqualified names in migrations and engine queries must resolve to the service schema.
      { connectionString: url, options: `-c search_path=${quoteIdent(this.schema)}`, max: 2 },
      { schema: this.schema },
    );
    const adapter = patchAdapter(await factory.connect());
    const dispose = adapter.dispose.bind(adapter);
    let disposed = false;
    adapter.dispose = async () => {
      if (disposed) return; // pg.Pool#end throws when called twice
      disposed = true;
      this.open.delete(adapter);
      await dispose();
    };
    this.open.add(adapter);
    return adapter;
  }

  connect() {
    return this.#remember(() => this.#connectTo(this.databaseUrl));
  }

  connectToShadowDb() {
    return this.#remember(() => this.#createShadow());
  }

  /**
   * Errors reach the engine as opaque "GenericJs" ids; keep the original to report it.
   * @template T @param {() => Promise<T>} fn @returns {Promise<T>}
   */
  async #remember(fn) {
    try {
      return await fn();
    } catch (error) {
      this.lastError = error;
      throw error;
    }
  }

  async #createShadow() {
    const name = `prisma_shadow_${randomUUID().replaceAll('-', '')}`;
    await adminQuery(this.databaseUrl, `CREATE DATABASE ${quoteIdent(name)}`);
    this.shadowDatabases.add(name);
    const url = withDatabase(this.databaseUrl, name);
    await adminQuery(url, `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.schema)}`);
    const adapter = await this.#connectTo(url);
    const dispose = adapter.dispose;
    adapter.dispose = async () => {
      await dispose();
      await this.#dropShadow(name);
    };
    return adapter;
  }

  /** @param {string} name */
  async #dropShadow(name) {
    if (!this.shadowDatabases.delete(name)) return;
    await adminQuery(this.databaseUrl, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  }

  async close() {
    for (const adapter of [...this.open]) await adapter.dispose().catch(() => {});
    for (const name of [...this.shadowDatabases]) await this.#dropShadow(name).catch(() => {});
  }
}

/** @param {string} url @param {string} sql */
async function adminQuery(url, sql) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * @template T
 * @param {{ databaseUrl: string, schema: string, datamodels?: [string, string][], debug?: (line: string) => void }} options
 * @param {(engine: SchemaEngine) => Promise<T>} fn @returns {Promise<T>}
 */
export async function withSchemaEngine({ databaseUrl, schema, datamodels, debug }, fn) {
  const SchemaEngine = await loadSchemaEngine();
  const factory = new ServiceAdapterFactory(databaseUrl, schema);
  const bound = bindMigrationAwareSqlAdapterFactory(/** @type {any} */ (factory));
  const log = (/** @type {string} */ line) => debug?.(line);
  /** @type {SchemaEngine | undefined} */
  let engine;
  try {
    engine = await SchemaEngine.new({ datamodels }, log, bound);
    return await fn(engine);
  } catch (error) {
    throw engineError(error, factory.lastError);
  } finally {
    engine?.free();
    await factory.close();
  }
}

/**
 * Engine messages carry a Rust backtrace and our factory's failures arrive as an opaque id: prefer the original JS
 * error.
 * @param {unknown} error @param {unknown} adapterError
 */
function engineError(error, adapterError) {
  const message = error instanceof Error ? error.message : String(error);
  if (adapterError instanceof Error && /GenericJs/i.test(message)) return adapterError;
  if (!(error instanceof Error)) return new Error(`schema engine: ${message}`);
  error.message = message.replace(/\n\s+0: [\s\S]*$/, '').trim();
  return error;
}
