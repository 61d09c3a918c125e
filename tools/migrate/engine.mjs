// Drives Prisma's WebAssembly schema engine in-process.
//
// Why: the Prisma 7 CLI only runs `migrate` with the native schema-engine binary, which it downloads from
// Prisma's binary host (unreachable here and in air-gapped clusters). The wasm build of the same engine ships
// inside the `prisma` package; we pair it with the JS glue from `@prisma/schema-engine-wasm` and give it a
// `@prisma/adapter-pg` connection, patched where the adapter does not fit migrations (see below).
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
 * Locates the engine build the installed CLI ships, so that the SQL we generate is what `prisma` itself
 * would generate. Falls back to any `schema_engine*.wasm` in the CLI's build folder (file name drift).
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
 * Instantiates the wasm module once per process. Node 20 cannot `import` a .wasm file, so we compile it and
 * wire the glue's exports up as its imports ourselves (what the package's `schema_engine.js` would do).
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
 * Postgres `"char"` (oid 18, used all over pg_catalog) is unknown to adapter-pg's column-type mapping and makes
 * the engine's introspection queries fail; it is a one-byte string, so report it as text (oid 25).
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

/**
 * @param {any} adapter a PrismaPgAdapter
 */
function patchAdapter(adapter) {
  patchCharColumns(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (/** @type {any[]} */ ...args) => {
    const tx = await startTransaction(...args);
    patchCharColumns(tx);
    return tx;
  };
  // adapter-pg splits scripts on ";" and autocommits each piece, which breaks function bodies and leaves
  // half-applied migrations. One simple-protocol query with the whole script runs as a single implicit
  // transaction in Postgres, so a failing script rolls back entirely.
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
 * The SQL connection factory handed to the engine: one Postgres database + one schema (the service's).
 * Provides its own shadow-database factory because adapter-pg's one ignores the database name when the config
 * is a connection string, and ends up using the main database.
 */
class ServiceAdapterFactory {
  provider = /** @type {const} */ ('postgres');
  adapterName = '@prisma/adapter-pg';

  /**
   * @param {string} databaseUrl
   * @param {string} schema Postgres schema the service lives in
   */
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
   * Errors thrown here reach the engine as opaque "GenericJs" ids; keep the original to report it.
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

  /** Closes whatever the engine left open and drops leftover shadow databases. */
  async close() {
    for (const adapter of [...this.open]) await adapter.dispose().catch(() => {});
    for (const name of [...this.shadowDatabases]) await this.#dropShadow(name).catch(() => {});
  }
}

/**
 * @param {string} url
 * @param {string} sql
 */
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
 * Runs `fn` with a schema engine connected to `databaseUrl`, scoped to Postgres schema `schema`, and tears
 * everything down afterwards (engine, pools, shadow databases).
 * @template T
 * @param {{ databaseUrl: string, schema: string, datamodels?: [string, string][], debug?: (line: string) => void }} options
 * @param {(engine: SchemaEngine) => Promise<T>} fn
 * @returns {Promise<T>}
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
 * Engine errors carry a Rust backtrace in their message; connection failures inside our factory only reach the
 * engine as an opaque id, so prefer the original JS error when there is one.
 * @param {unknown} error
 * @param {unknown} adapterError
 */
function engineError(error, adapterError) {
  const message = error instanceof Error ? error.message : String(error);
  if (adapterError instanceof Error && /GenericJs/i.test(message)) return adapterError;
  if (!(error instanceof Error)) return new Error(`schema engine: ${message}`);
  error.message = message.replace(/\n\s+0: [\s\S]*$/, '').trim();
  return error;
}
