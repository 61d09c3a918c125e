import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_DATABASE_URL,
  connect,
  databaseName,
  ensureDatabase,
  ensureMigrationsTable,
  lock,
  quoteIdent,
  readMigrationRows,
  unlock,
} from './db.mjs';
import { withSchemaEngine } from './engine.mjs';
import {
  DEFAULT_PRISMA_DIR,
  REPO_ROOT,
  engineMigrationList,
  readMigrations,
  readSchemaFiles,
  selectServices,
  servicePaths,
  slugify,
  writeMigration,
} from './layout.mjs';

export { listServices } from './layout.mjs';

/** A user-facing failure; the CLI prints its message without a stack. */
export class MigrateError extends Error {
  name = 'MigrateError';
}

/**
 * @typedef {object} CommonOptions
 * @property {string} [databaseUrl] default: $DATABASE_URL, then postgresql://postgres@127.0.0.1:5432/cairn
 * @property {string} [service] one service; default: every `prisma/<service>/schema.prisma`
 * @property {string} [prismaDir] default: <repo>/prisma (tests point this at fixtures)
 * @property {(line: string) => void} [log] progress lines; default: silent
 */

/**
 * @typedef {object} ServiceStatus
 * @property {string} service
 * @property {string[]} applied migrations applied and finished, in order
 * @property {string[]} pending on disk, not applied yet
 * @property {{ name: string, startedAt: Date, logs: string | null }[]} failed started but never finished (blocks deploy)
 * @property {string[]} edited applied, but migration.sql changed since (checksum mismatch; blocks deploy)
 * @property {string[]} missing applied to the database but absent on disk
 */

/** @param {CommonOptions} options */
function withDefaults(options) {
  return {
    databaseUrl: options.databaseUrl ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
    prismaDir: path.resolve(options.prismaDir ?? DEFAULT_PRISMA_DIR),
    service: options.service,
    log: options.log ?? (() => {}),
  };
}

const filters = { externalTables: [], externalEnums: [] };

const engineDebug = process.env.MIGRATE_DEBUG ? (/** @type {string} */ line) => console.error(line) : undefined;

/**
 * As Prisma does: rolled-back rows are ignored, a row without finished_at is a failed migration.
 * @param {string} service @param {import('./layout.mjs').LocalMigration[]} local
 * @param {import('./db.mjs').MigrationRow[]} rows @returns {ServiceStatus}
 */
function analyze(service, local, rows) {
  const live = rows.filter((r) => r.rolled_back_at === null);
  const finished = new Map(live.filter((r) => r.finished_at !== null).map((r) => [r.migration_name, r]));
  const failed = live
    .filter((r) => r.finished_at === null)
    .map((r) => ({ name: r.migration_name, startedAt: r.started_at, logs: r.logs }));
  const failedNames = new Set(failed.map((f) => f.name));
  const localNames = new Set(local.map((m) => m.name));
  return {
    service,
    applied: local.filter((m) => finished.has(m.name)).map((m) => m.name),
    pending: local.filter((m) => !finished.has(m.name) && !failedNames.has(m.name)).map((m) => m.name),
    failed,
    edited: local.filter((m) => finished.has(m.name) && finished.get(m.name)?.checksum !== m.checksum).map((m) => m.name),
    missing: [...finished.keys()].filter((name) => !localNames.has(name)),
  };
}

/** @param {string} service @param {string} name */
const resolveHint = (service, name) =>
  `fix the cause, then run: npm run migrate -- resolve --service ${service} --rolled-back ${name}`;

/** @param {ServiceStatus} st */
function refuseBrokenHistory(st) {
  if (st.failed.length > 0) {
    const f = st.failed[0];
    throw new MigrateError(
      `${st.service}: migration ${f.name} failed earlier and blocks deploys` +
        (f.logs ? `\n${indent(f.logs)}` : '') +
        `\n  ${resolveHint(st.service, f.name)}`,
    );
  }
  if (st.edited.length > 0) {
    throw new MigrateError(
      `${st.service}: migration.sql of already-applied migration(s) ${st.edited.join(', ')} changed (checksum mismatch); ` +
        'restore the original file and put the change into a new migration',
    );
  }
}

/** Repo-relative when inside the repo, absolute otherwise. @param {string} p */
function display(p) {
  const rel = path.relative(REPO_ROOT, p);
  return rel.startsWith('..') ? p : rel;
}

/** @param {string} text */
const indent = (text) => text.replace(/^/gm, '    ');

/** @param {any} error */
function failureLogs(error) {
  const parts = [`Database error code: ${error?.code ?? 'unknown'}`, '', 'Database error:', `ERROR: ${error?.message ?? error}`];
  if (error?.detail) parts.push(`DETAIL: ${error.detail}`);
  if (error?.hint) parts.push(`HINT: ${error.hint}`);
  if (error?.position) parts.push(`Position: ${error.position}`);
  return parts.join('\n');
}

/**
 * The row goes in first (outside the transaction) so a failure leaves a record; the file and the row's finish commit
 * together.
 * @param {import('pg').Client} client @param {string} service
 * @param {import('./layout.mjs').LocalMigration} migration
 */
async function applyMigration(client, service, migration) {
  const table = `${quoteIdent(service)}."_prisma_migrations"`;
  const id = randomUUID();
  await client.query(
    `INSERT INTO ${table} (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, clock_timestamp(), 0)`,
    [id, migration.checksum, migration.name],
  );
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL search_path TO ${quoteIdent(service)}`);
    await client.query(migration.script); // no parameters: simple protocol, several statements allowed
    await client.query(
      `UPDATE ${table} SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1`,
      [id],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    await client.query(`UPDATE ${table} SET logs = $2 WHERE id = $1`, [id, failureLogs(error)]).catch(() => {});
    throw new MigrateError(
      `${service}: migration ${migration.name} failed and was rolled back: ${/** @type {any} */ (error)?.message ?? error}\n` +
        `  ${resolveHint(service, migration.name)}`,
    );
  }
}

/**
 * @template T @param {string} databaseUrl @param {(line: string) => void} log
 * @param {(client: import('pg').Client) => Promise<T>} fn @returns {Promise<T>}
 */
async function locked(databaseUrl, log, fn) {
  if (await ensureDatabase(databaseUrl)) log(`created database ${databaseName(databaseUrl)}`);
  const client = await connect(databaseUrl);
  try {
    await lock(client, () => log('waiting for another migration run to finish (advisory lock)…'));
    try {
      return await fn(client);
    } finally {
      await unlock(client).catch(() => {}); // ending the session releases it anyway
    }
  } finally {
    await client.end();
  }
}

/**
 * Pending migrations of each service, each in its own transaction; refuses while one is failed or edited; stops at
 * the first failure.
 * @param {CommonOptions} [options] @returns {Promise<{ applied: { service: string, migration: string }[] }>}
 */
export async function deploy(options = {}) {
  const o = withDefaults(options);
  const services = selectServices(o.service, o.prismaDir);
  // Read every folder first: a broken checkout should fail before touching the database.
  const local = new Map(services.map((s) => [s, readMigrations(servicePaths(o.prismaDir, s).migrations)]));
  /** @type {{ service: string, migration: string }[]} */
  const applied = [];
  await locked(o.databaseUrl, o.log, async (client) => {
    for (const service of services) {
      const migrations = local.get(service) ?? [];
      await ensureMigrationsTable(client, service);
      const st = analyze(service, migrations, await readMigrationRows(client, service));
      refuseBrokenHistory(st);
      for (const name of st.missing) {
        o.log(`${service}: warning: ${name} is applied to the database but missing from ${display(servicePaths(o.prismaDir, service).migrations)}`);
      }
      const pending = migrations.filter((m) => st.pending.includes(m.name));
      for (const migration of pending) {
        await applyMigration(client, service, migration);
        applied.push({ service, migration: migration.name });
        o.log(`${service}: applied ${migration.name}`);
      }
      if (pending.length === 0) o.log(`${service}: up to date (${st.applied.length} migrations)`);
    }
  });
  return { applied };
}

/**
 * Read-only.
 * @param {CommonOptions} [options]
 * @returns {Promise<{ ok: boolean, services: ServiceStatus[] }>} ok: nothing pending, failed, edited or missing
 */
export async function status(options = {}) {
  const o = withDefaults(options);
  const services = selectServices(o.service, o.prismaDir);
  /** @type {import('pg').Client | undefined} */
  let client;
  try {
    client = await connect(o.databaseUrl);
  } catch (error) {
    if (/** @type {any} */ (error)?.code !== '3D000') throw error; // database missing: everything is pending
  }
  try {
    /** @type {ServiceStatus[]} */
    const result = [];
    for (const service of services) {
      const local = readMigrations(servicePaths(o.prismaDir, service).migrations);
      const rows = client ? await readMigrationRows(client, service) : [];
      result.push(analyze(service, local, rows));
    }
    const ok = result.every((s) => !s.pending.length && !s.failed.length && !s.edited.length && !s.missing.length);
    return { ok, services: result };
  } finally {
    await client?.end();
  }
}

/**
 * @template T @param {string} databaseUrl @param {string} service
 * @param {(engine: import('./engine.mjs').SchemaEngine) => Promise<T>} fn @returns {Promise<T>}
 */
async function withServiceEngine(databaseUrl, service, fn) {
  try {
    return await withSchemaEngine({ databaseUrl, schema: service, debug: engineDebug }, fn);
  } catch (error) {
    if (error instanceof MigrateError) throw error;
    throw new MigrateError(`${service}: ${/** @type {any} */ (error)?.message ?? error}`, { cause: error });
  }
}

/**
 * An empty diff prints something that is not a migration; a diff from an empty database would also create the schema
 * (migrations stay schema-agnostic).
 * @param {string | null | undefined} sql
 */
function normalizeSql(sql) {
  const cleaned = (sql ?? '').replace(/^-- CreateSchema\nCREATE SCHEMA IF NOT EXISTS "[^"]+";\n*/m, '');
  const meaningful = cleaned
    .split('\n')
    .some((line) => line.trim() !== '' && !line.trim().startsWith('--'));
  return meaningful ? cleaned : '';
}

/**
 * Migrations replayed in a shadow database vs schema.prisma.
 * @param {CommonOptions} [options]
 * @returns {Promise<{ service: string, sql: string }[]>} sql is '' when migrations cover the schema
 */
export async function diff(options = {}) {
  const o = withDefaults(options);
  const services = selectServices(o.service, o.prismaDir);
  await ensureDatabase(o.databaseUrl); // the shadow database is created through it
  const result = [];
  for (const service of services) {
    const paths = servicePaths(o.prismaDir, service);
    const migrationsList = engineMigrationList(paths.migrations, readMigrations(paths.migrations));
    const files = readSchemaFiles(paths.schema);
    const out = await withServiceEngine(
      o.databaseUrl,
      service,
      (engine) =>
        engine.diff({
          from: { tag: 'migrations', ...migrationsList },
          to: { tag: 'schemaDatamodel', files },
          script: true,
          exitCode: true, // exitCode 2 = non-empty
          filters,
        }),
    );
    result.push({ service, sql: out.exitCode === 2 ? normalizeSql(out.stdout) : '' });
  }
  return result;
}

/** @param {CommonOptions} [options] @returns {Promise<{ ok: boolean, uncovered: { service: string, sql: string }[], message: string }>} */
export async function check(options = {}) {
  const o = withDefaults(options);
  const diffs = await diff(options);
  const uncovered = diffs.filter((d) => d.sql !== '');
  const message =
    uncovered.length === 0
      ? `migrations cover every schema (${diffs.map((d) => d.service).join(', ') || 'no services'})`
      : uncovered
          .map(
            (d) =>
              `service "${d.service}": ${display(servicePaths(o.prismaDir, d.service).schema)} has changes not covered by its migrations; ` +
              `run: npm run migrate -- dev --service ${d.service} --name <what_changed>\n${indent(d.sql.trim())}`,
          )
          .join('\n');
  o.log(message);
  return { ok: uncovered.length === 0, uncovered, message };
}

/**
 * Like `prisma migrate dev`: refuses when the database drifted, and on data-loss warnings unless acceptDataLoss.
 * @param {CommonOptions & { name: string, acceptDataLoss?: boolean }} options
 * @returns {Promise<{ created: { service: string, migration: string, sql: string }[] }>}
 */
export async function dev(options) {
  const o = withDefaults(options);
  if (!options.name) throw new MigrateError('dev needs --name <migration_name>');
  slugify(options.name); // validate early
  const services = selectServices(o.service, o.prismaDir);
  const created = [];
  for (const service of services) {
    await deploy({ ...options, service });
    const paths = servicePaths(o.prismaDir, service);
    const migrationsList = engineMigrationList(paths.migrations, readMigrations(paths.migrations));
    const files = readSchemaFiles(paths.schema);
    const sql = await withServiceEngine(o.databaseUrl, service, async (engine) => {
      // devDiagnostic also prepares the engine's shadow state: evaluateDataLoss fails without it.
      const { action } = await engine.devDiagnostic({ migrationsList, filters });
      if (action.tag === 'reset') {
        throw new MigrateError(
          `${service}: the database does not match the migrations: ${action.reason}\n` +
            `  for a development database, drop the schema (DROP SCHEMA "${service}" CASCADE) and run dev again`,
        );
      }
      const loss = await engine.evaluateDataLoss({ migrationsList, filters, schema: { files } });
      if (loss.unexecutableSteps.length > 0) {
        throw new MigrateError(
          `${service}: the migration cannot be applied to the current data:\n${loss.unexecutableSteps.map((s) => `  - ${s.message}`).join('\n')}`,
        );
      }
      if (loss.warnings.length > 0 && !options.acceptDataLoss) {
        throw new MigrateError(
          `${service}: the migration would lose data (re-run with --accept-data-loss to proceed):\n${loss.warnings.map((w) => `  - ${w.message}`).join('\n')}`,
        );
      }
      const out = await engine.createMigration({
        migrationsList,
        filters,
        schema: { files },
        draft: false,
        migrationName: slugify(options.name),
      });
      return normalizeSql(out.migrationScript);
    });
    if (!sql) {
      o.log(`${service}: no changes`);
      continue;
    }
    const migration = writeMigration(paths.migrations, options.name, sql);
    o.log(`${service}: created ${display(path.join(paths.migrations, migration))}`);
    await deploy({ ...options, service });
    created.push({ service, migration, sql });
  }
  return { created };
}

/**
 * Same semantics as `prisma migrate resolve`.
 * @param {CommonOptions & { service: string, rolledBack?: string, applied?: string }} options
 */
export async function resolve(options) {
  const o = withDefaults(options);
  if (!o.service) throw new MigrateError('resolve needs --service');
  if (!options.rolledBack === !options.applied) throw new MigrateError('resolve needs exactly one of --rolled-back <name> / --applied <name>');
  const [service] = selectServices(o.service, o.prismaDir);
  const table = `${quoteIdent(service)}."_prisma_migrations"`;
  await locked(o.databaseUrl, o.log, async (client) => {
    await ensureMigrationsTable(client, service);
    if (options.rolledBack) {
      const { rowCount } = await client.query(
        `UPDATE ${table} SET rolled_back_at = clock_timestamp() WHERE migration_name = $1 AND finished_at IS NULL AND rolled_back_at IS NULL`,
        [options.rolledBack],
      );
      if (!rowCount) throw new MigrateError(`${service}: no failed migration named ${options.rolledBack}`);
      o.log(`${service}: marked ${options.rolledBack} as rolled back`);
      return;
    }
    const name = /** @type {string} */ (options.applied);
    const migration = readMigrations(servicePaths(o.prismaDir, service).migrations).find((m) => m.name === name);
    if (!migration) throw new MigrateError(`${service}: no migration folder named ${name}`);
    const st = analyze(service, [migration], await readMigrationRows(client, service));
    if (st.applied.includes(name)) throw new MigrateError(`${service}: ${name} is already applied`);
    await client.query(
      `UPDATE ${table} SET rolled_back_at = clock_timestamp() WHERE migration_name = $1 AND finished_at IS NULL AND rolled_back_at IS NULL`,
      [name],
    );
    await client.query(
      `INSERT INTO ${table} (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ($1, $2, $3, clock_timestamp(), clock_timestamp(), 0)`,
      [randomUUID(), migration.checksum, name],
    );
    o.log(`${service}: marked ${name} as applied`);
  });
}

const require = createRequire(import.meta.url);
export const STUB_ENGINE = fileURLToPath(new URL('./schema-engine-stub.sh', import.meta.url));

/**
 * The CLI wants a native schema engine even though generate never uses it; a stub that fails loudly satisfies the
 * check.
 * @param {Omit<CommonOptions, 'databaseUrl'>} [options] @returns {Promise<string[]>} services generated
 */
export async function generate(options = {}) {
  const o = withDefaults(options);
  const services = selectServices(o.service, o.prismaDir);
  try {
    accessSync(STUB_ENGINE, constants.X_OK);
  } catch {
    chmodSync(STUB_ENGINE, 0o755); // a checkout without the exec bit
  }
  const cli = path.join(path.dirname(require.resolve('prisma/package.json')), 'build', 'index.js');
  for (const service of services) {
    const { schema } = servicePaths(o.prismaDir, service);
    const { code, output } = await run(process.execPath, [cli, 'generate', '--schema', schema], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PRISMA_SCHEMA_ENGINE_BINARY: STUB_ENGINE,
        PRISMA_HIDE_UPDATE_MESSAGE: '1',
        CHECKPOINT_DISABLE: '1', // no telemetry request to an unreachable host
      },
    });
    if (code !== 0) throw new MigrateError(`${service}: prisma generate failed (exit ${code}):\n${indent(output.trim())}`);
    o.log(`${service}: generated client`);
  }
  return services;
}

/**
 * @param {string} cmd @param {string[]} args @param {import('node:child_process').SpawnOptions} opts
 * @returns {Promise<{ code: number | null, output: string }>}
 */
function run(cmd, args, opts) {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}
