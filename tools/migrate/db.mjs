import pg from 'pg';

export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/cairn';

/** Native Prisma's `pg_advisory_lock` key, so our deploys also exclude a concurrent native `prisma migrate deploy`. */
export const ADVISORY_LOCK_KEY = 72707369;

/** @param {string} name */
export function quoteIdent(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

/** @param {string} url @param {string} database */
export function withDatabase(url, database) {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

/** @param {string} url */
export function databaseName(url) {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`DATABASE_URL has no database name: ${redact(url)}`);
  return name;
}

/** Hides a password before a URL goes into a message. @param {string} url */
export function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<invalid url>';
  }
}

/**
 * Creates the database if missing (via the `postgres` maintenance database); safe against a concurrent creator.
 * @param {string} url @returns {Promise<boolean>} true when it was created
 */
export async function ensureDatabase(url) {
  const name = databaseName(url);
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
      return true;
    } catch (error) {
      // 42P04 duplicate_database, 23505 when two CREATE DATABASE race on the catalog index
      const code = /** @type {any} */ (error).code;
      if (code === '42P04' || code === '23505') return false;
      throw error;
    }
  } finally {
    await client.end();
  }
}

/** @param {string} url @returns {Promise<pg.Client>} */
export async function connect(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** @param {pg.Client} client @param {string} schema */
export async function schemaExists(client, schema) {
  const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  return Boolean(rowCount);
}

/** @param {pg.Client} client @param {string} schema */
export async function migrationsTableExists(client, schema) {
  const { rows } = await client.query('SELECT to_regclass($1) IS NOT NULL AS present', [
    `${quoteIdent(schema)}."_prisma_migrations"`,
  ]);
  return rows[0].present;
}

/**
 * Exactly native Prisma's table, so `prisma migrate deploy` accepts our bookkeeping later.
 * @param {pg.Client} client @param {string} schema
 */
export async function ensureMigrationsTable(client, schema) {
  const s = quoteIdent(schema);
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${s}."_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
  )`);
}

/**
 * @typedef {{ id: string, checksum: string, finished_at: Date | null, migration_name: string, logs: string | null,
 *   rolled_back_at: Date | null, started_at: Date, applied_steps_count: number }} MigrationRow
 */

/**
 * @param {pg.Client} client @param {string} schema
 * @returns {Promise<MigrationRow[]>} rows in application order; empty when the table does not exist
 */
export async function readMigrationRows(client, schema) {
  if (!(await migrationsTableExists(client, schema))) return [];
  const { rows } = await client.query(
    `SELECT * FROM ${quoteIdent(schema)}."_prisma_migrations" ORDER BY started_at, migration_name`,
  );
  return rows;
}

/**
 * Session-level advisory lock (scoped to this database); waits for a concurrent deploy to finish.
 * @param {pg.Client} client @param {() => void} [onWait] called once when someone else holds the lock
 */
export async function lock(client, onWait) {
  const { rows } = await client.query('SELECT pg_try_advisory_lock($1) AS got', [ADVISORY_LOCK_KEY]);
  if (rows[0].got) return;
  onWait?.();
  await client.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
}

/** @param {pg.Client} client */
export async function unlock(client) {
  await client.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]);
}
