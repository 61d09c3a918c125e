// Against the real Postgres; every test has its own database and prisma/ layout (from prisma/_fixtures/migrate).
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { withSchemaEngine } from './engine.mjs';
import { engineMigrationList, readMigrations } from './layout.mjs';
import { MigrateError, check, deploy, dev, diff, generate, listServices, resolve, status } from './index.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(HERE, 'cli.mjs');
const FIXTURES = path.resolve(HERE, '../../prisma/_fixtures/migrate');
const SERVER = process.env.MIGRATE_TEST_SERVER ?? 'postgresql://postgres@127.0.0.1:5432';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function admin<T>(fn: (c: pg.Client) => Promise<T>, database = 'postgres'): Promise<T> {
  const c = new pg.Client({ connectionString: `${SERVER}/${database}` });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function freshDatabase({ create = true } = {}): Promise<string> {
  const name = `migrate_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  if (create) await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  cleanups.push(() => admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}));
  return `${SERVER}/${name}`;
}

function workspace(services: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'cairn-migrate-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const prismaDir = path.join(root, 'prisma');
  for (const [service, fixture] of Object.entries(services)) useSchema(prismaDir, service, fixture);
  return prismaDir;
}

function useSchema(prismaDir: string, service: string, fixture: string) {
  mkdirSync(path.join(prismaDir, service), { recursive: true });
  cpSync(path.join(FIXTURES, fixture), path.join(prismaDir, service, 'schema.prisma'));
}

function addMigration(prismaDir: string, service: string, name: string, sql: string) {
  const dir = path.join(prismaDir, service, 'migrations', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'migration.sql'), sql);
  writeFileSync(path.join(prismaDir, service, 'migrations', 'migration_lock.toml'), 'provider = "postgresql"\n');
}

async function query<R extends pg.QueryResultRow = any>(url: string, sql: string, params: unknown[] = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<R>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

async function tableExists(url: string, qualified: string): Promise<boolean> {
  const [row] = await query(url, 'SELECT to_regclass($1) IS NOT NULL AS present', [qualified]);
  return row.present;
}

function migrationRows(url: string, service: string) {
  return query(url, `SELECT * FROM "${service}"."_prisma_migrations" ORDER BY started_at`);
}

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

// The function body's semicolons prove the file is sent whole (adapter-pg's executeScript would split it).
const M1 = '20240101000000_init';
const M1_SQL = `CREATE TABLE "Widget" ("id" SERIAL PRIMARY KEY, "name" TEXT NOT NULL);
CREATE FUNCTION widget_count() RETURNS integer LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE n integer;
BEGIN
  SELECT count(*) INTO n FROM "Widget";
  RETURN n;
END;
$$;
INSERT INTO "Widget" ("name") VALUES ('first');
`;
const M2 = '20240102000000_gadgets';
const M2_SQL = `CREATE TABLE "Gadget" ("id" SERIAL PRIMARY KEY);\n`;

describe('tools/migrate', { timeout: 120_000 }, () => {
  it('listServices finds prisma/<service>/schema.prisma and skips _ folders', () => {
    const prismaDir = workspace({ repo: 'v1.prisma', identity: 'v1.prisma', _fixtures: 'v1.prisma' });
    mkdirSync(path.join(prismaDir, 'notes')); // no schema: not a service
    expect(listServices({ prismaDir })).toEqual(['identity', 'repo']);
  });

  it('dev creates a migration whose SQL creates the tables, applies it, and keeps services in their own schema', async () => {
    const url = await freshDatabase({ create: false }); // dev creates the database too
    const prismaDir = workspace({ identity: 'v1.prisma', repo: 'v1.prisma' });

    const { created } = await dev({ databaseUrl: url, prismaDir, name: 'Init' });

    expect(created.map((c) => c.service)).toEqual(['identity', 'repo']);
    for (const { service, migration, sql } of created) {
      expect(migration).toMatch(/^\d{14}_init$/);
      const dir = path.join(prismaDir, service, 'migrations');
      const file = path.join(dir, migration, 'migration.sql');
      expect(readFileSync(file, 'utf8')).toBe(sql);
      expect(sql).toContain('CREATE TABLE "Account"');
      expect(sql).toContain('CREATE TABLE "SshKey"');
      expect(sql).toContain('CREATE TYPE "Role"');
      expect(sql).not.toMatch(/CREATE SCHEMA|"identity"\.|"public"\./); // schema-agnostic SQL
      expect(readFileSync(path.join(dir, 'migration_lock.toml'), 'utf8')).toMatch(/^provider = "postgresql"$/m);
      expect(await tableExists(url, `"${service}"."Account"`)).toBe(true);
      const [row] = await migrationRows(url, service);
      expect(row).toMatchObject({ migration_name: migration, checksum: sha256(file), applied_steps_count: 1 });
      expect(row.finished_at).toBeInstanceOf(Date);
    }
    expect(await tableExists(url, 'public."Account"')).toBe(false);

    const again = await dev({ databaseUrl: url, prismaDir, name: 'again', service: 'identity' });
    expect(again.created).toEqual([]);
    expect(readdirSync(path.join(prismaDir, 'identity', 'migrations')).filter((f) => f !== 'migration_lock.toml')).toHaveLength(1);
  });

  it('deploy applies pending migrations as whole files, records checksums, and is idempotent', async () => {
    const url = await freshDatabase();
    const prismaDir = workspace({ hooks: 'v1.prisma' });
    addMigration(prismaDir, 'hooks', M1, M1_SQL);
    addMigration(prismaDir, 'hooks', M2, M2_SQL);

    const first = await deploy({ databaseUrl: url, prismaDir });
    expect(first.applied).toEqual([
      { service: 'hooks', migration: M1 },
      { service: 'hooks', migration: M2 },
    ]);
    const rows = await migrationRows(url, 'hooks');
    expect(rows.map((r) => [r.migration_name, r.checksum, r.applied_steps_count, r.finished_at !== null, r.logs])).toEqual([
      [M1, sha256(path.join(prismaDir, 'hooks/migrations', M1, 'migration.sql')), 1, true, null],
      [M2, sha256(path.join(prismaDir, 'hooks/migrations', M2, 'migration.sql')), 1, true, null],
    ]);
    expect((await query(url, 'SELECT hooks.widget_count() AS n'))[0].n).toBe(1);

    const second = await deploy({ databaseUrl: url, prismaDir });
    expect(second.applied).toEqual([]);
    expect(await migrationRows(url, 'hooks')).toHaveLength(2);
    expect((await query(url, 'SELECT hooks.widget_count() AS n'))[0].n).toBe(1);

    const columns = await query(
      url,
      `SELECT column_name, data_type, character_maximum_length AS len, is_nullable FROM information_schema.columns
       WHERE table_schema = 'hooks' AND table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns.map((c) => `${c.column_name} ${c.data_type}${c.len ? `(${c.len})` : ''} ${c.is_nullable}`)).toEqual([
      'id character varying(36) NO',
      'checksum character varying(64) NO',
      'finished_at timestamp with time zone YES',
      'migration_name character varying(255) NO',
      'logs text YES',
      'rolled_back_at timestamp with time zone YES',
      'started_at timestamp with time zone NO',
      'applied_steps_count integer NO',
    ]);

    // Prisma's own engine reads our bookkeeping as in sync (what a native `migrate deploy` would check).
    const migrationsDir = path.join(prismaDir, 'hooks', 'migrations');
    const diagnosis = await withSchemaEngine({ databaseUrl: url, schema: 'hooks' }, (engine) =>
      engine.diagnoseMigrationHistory({
        migrationsList: engineMigrationList(migrationsDir, readMigrations(migrationsDir)),
        optInToShadowDatabase: false,
        filters: { externalTables: [], externalEnums: [] },
      }),
    );
    expect(diagnosis).toMatchObject({ hasMigrationsTable: true, history: null, failedMigrationNames: [], editedMigrationNames: [] });
  });

  it('status reports applied and pending migrations (API and CLI exit codes)', async () => {
    const url = await freshDatabase();
    const prismaDir = workspace({ runners: 'v1.prisma' });
    addMigration(prismaDir, 'runners', M1, M1_SQL);
    await deploy({ databaseUrl: url, prismaDir });
    addMigration(prismaDir, 'runners', M2, M2_SQL);

    const before = await status({ databaseUrl: url, prismaDir });
    expect(before.ok).toBe(false);
    expect(before.services).toEqual([{ service: 'runners', applied: [M1], pending: [M2], failed: [], edited: [], missing: [] }]);
    const cliBefore = await cli(['status', '--prisma-dir', prismaDir, '--database-url', url]);
    expect(cliBefore.code).toBe(1);
    expect(cliBefore.stdout).toContain(`pending  ${M2}`);
    expect(cliBefore.stdout).toContain(`applied  ${M1}`);

    await deploy({ databaseUrl: url, prismaDir });
    expect(await status({ databaseUrl: url, prismaDir })).toMatchObject({ ok: true, services: [{ applied: [M1, M2], pending: [] }] });
    const cliAfter = await cli(['status', '--prisma-dir', prismaDir, '--database-url', url]);
    expect(cliAfter.code).toBe(0);
    expect(cliAfter.stdout).toContain('runners: 2 applied, 0 pending');

    // A database that does not exist yet: everything pending, nothing created.
    const missing = await freshDatabase({ create: false });
    expect((await status({ databaseUrl: missing, prismaDir })).services[0].pending).toEqual([M1, M2]);
  });

  it('check fails on a schema change not covered by migrations and passes after dev', async () => {
    const url = await freshDatabase();
    const prismaDir = workspace({ identity: 'v1.prisma', repo: 'v1.prisma' });
    await dev({ databaseUrl: url, prismaDir, name: 'init' });
    expect((await check({ databaseUrl: url, prismaDir })).ok).toBe(true);

    useSchema(prismaDir, 'repo', 'v2.prisma');
    const failing = await check({ databaseUrl: url, prismaDir });
    expect(failing.ok).toBe(false);
    expect(failing.uncovered.map((u) => u.service)).toEqual(['repo']);
    expect(failing.message).toContain('service "repo"');
    const [repoDiff] = await diff({ databaseUrl: url, prismaDir, service: 'repo' });
    expect(repoDiff.sql).toContain('ADD COLUMN');
    expect(repoDiff.sql).toContain('CREATE TABLE "Team"');

    const cliCheck = await cli(['check', '--prisma-dir', prismaDir, '--database-url', url]);
    expect(cliCheck.code).toBe(1);
    expect(cliCheck.stderr).toContain('service "repo"');
    expect(cliCheck.stderr).not.toContain('service "identity"');
    expect(cliCheck.ms).toBeLessThan(20_000); // engine timers must not keep the process alive

    const { created } = await dev({ databaseUrl: url, prismaDir, service: 'repo', name: 'add teams' });
    expect(created).toHaveLength(1);
    expect(created[0].migration).toMatch(/^\d{14}_add_teams$/);
    expect(await tableExists(url, 'repo."Team"')).toBe(true);
    expect(await tableExists(url, 'identity."Team"')).toBe(false);

    expect((await check({ databaseUrl: url, prismaDir })).ok).toBe(true);
    const cliDiff = await cli(['diff', '--prisma-dir', prismaDir, '--database-url', url, '--service', 'repo']);
    expect(cliDiff).toMatchObject({ code: 0, stdout: '' });
    const cliOk = await cli(['check', '--prisma-dir', prismaDir, '--database-url', url]);
    expect(cliOk.code).toBe(0);
  });

  it('a migration failing halfway leaves nothing applied, is recorded, and blocks deploys until resolved', async () => {
    const url = await freshDatabase();
    const prismaDir = workspace({ hooks: 'v1.prisma' });
    addMigration(prismaDir, 'hooks', M1, M1_SQL);
    const bad = '20240103000000_halfway';
    addMigration(
      prismaDir,
      'hooks',
      bad,
      `CREATE TABLE "Halfway" ("id" INTEGER PRIMARY KEY);\nINSERT INTO "Halfway" VALUES (1);\nINSERT INTO "DoesNotExist" VALUES (1);\n`,
    );

    const failure = await deploy({ databaseUrl: url, prismaDir }).catch((e) => e);
    expect(failure).toBeInstanceOf(MigrateError);
    expect(failure.message).toContain(bad);
    expect(await tableExists(url, 'hooks."Widget"')).toBe(true); // the good one before it stays
    expect(await tableExists(url, 'hooks."Halfway"')).toBe(false);
    const failedRow = (await migrationRows(url, 'hooks')).find((r) => r.migration_name === bad);
    expect(failedRow).toMatchObject({ finished_at: null, rolled_back_at: null, applied_steps_count: 0 });
    expect(failedRow.logs).toMatch(/42P01/);
    expect(failedRow.logs).toContain('DoesNotExist');
    expect((await status({ databaseUrl: url, prismaDir })).services[0].failed.map((f) => f.name)).toEqual([bad]);

    // Fixing the file is not enough: the failure has to be acknowledged.
    writeFileSync(path.join(prismaDir, 'hooks/migrations', bad, 'migration.sql'), 'CREATE TABLE "Halfway" ("id" INTEGER PRIMARY KEY);\n');
    await expect(deploy({ databaseUrl: url, prismaDir })).rejects.toThrow(/failed earlier and blocks deploys[\s\S]*--rolled-back/);
    const cliDeploy = await cli(['deploy', '--prisma-dir', prismaDir, '--database-url', url]);
    expect(cliDeploy.code).toBe(1);
    expect(cliDeploy.stderr).toContain(`resolve --service hooks --rolled-back ${bad}`);

    const resolved = await cli(['resolve', '--prisma-dir', prismaDir, '--database-url', url, '--service', 'hooks', '--rolled-back', bad]);
    expect(resolved.code).toBe(0);
    await expect(resolve({ databaseUrl: url, prismaDir, service: 'hooks', rolledBack: bad })).rejects.toThrow(/no failed migration/);

    expect((await deploy({ databaseUrl: url, prismaDir })).applied).toEqual([{ service: 'hooks', migration: bad }]);
    expect(await tableExists(url, 'hooks."Halfway"')).toBe(true);
    const rows = (await migrationRows(url, 'hooks')).filter((r) => r.migration_name === bad);
    expect(rows.map((r) => [r.finished_at !== null, r.rolled_back_at !== null])).toEqual([
      [false, true],
      [true, false],
    ]);
    expect((await status({ databaseUrl: url, prismaDir })).ok).toBe(true);
  });

  it('detects a changed checksum of an applied migration and refuses to deploy', async () => {
    const url = await freshDatabase();
    const prismaDir = workspace({ identity: 'v1.prisma' });
    addMigration(prismaDir, 'identity', M1, M1_SQL);
    await deploy({ databaseUrl: url, prismaDir });

    writeFileSync(path.join(prismaDir, 'identity/migrations', M1, 'migration.sql'), `${M1_SQL}-- edited afterwards\n`);
    addMigration(prismaDir, 'identity', M2, M2_SQL);

    const st = await status({ databaseUrl: url, prismaDir });
    expect(st.ok).toBe(false);
    expect(st.services[0]).toMatchObject({ edited: [M1], pending: [M2] });
    await expect(deploy({ databaseUrl: url, prismaDir })).rejects.toThrow(/checksum mismatch/);
    expect(await tableExists(url, 'identity."Gadget"')).toBe(false);
    const cliStatus = await cli(['status', '--prisma-dir', prismaDir, '--database-url', url]);
    expect(cliStatus.code).toBe(1);
    expect(cliStatus.stdout).toContain('EDITED');
  });

  it('two concurrent deploys (separate processes) apply each migration once', async () => {
    const url = await freshDatabase({ create: false }); // both processes also race to create the database
    const prismaDir = workspace({ repo: 'v1.prisma', runners: 'v1.prisma' });
    for (const service of ['repo', 'runners']) {
      addMigration(prismaDir, service, M1, `CREATE TABLE "Applied" ("at" TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp());\nSELECT pg_sleep(1);\nINSERT INTO "Applied" DEFAULT VALUES;\n`);
      addMigration(prismaDir, service, M2, `INSERT INTO "Applied" DEFAULT VALUES;\n`);
    }

    const results = await Promise.all([1, 2].map(() => cli(['deploy', '--prisma-dir', prismaDir, '--database-url', url])));

    expect(results.map((r) => [r.code, r.stderr])).toEqual([
      [0, ''],
      [0, ''],
    ]);
    const output = results.map((r) => r.stdout).join('\n');
    expect(output.match(/applied 20240101000000_init/g)).toHaveLength(2); // once per service, not per process
    expect(output).toContain('waiting for another migration run'); // they did overlap
    for (const service of ['repo', 'runners']) {
      expect((await query(url, `SELECT count(*)::int AS n FROM "${service}"."Applied"`))[0].n).toBe(2);
      expect((await migrationRows(url, service)).map((r) => r.migration_name)).toEqual([M1, M2]);
    }
    for (const r of results) expect(r.ms).toBeLessThan(20_000);
  });

  it('generate runs prisma generate per service and fails loudly on a broken schema', async () => {
    const prismaDir = workspace({ identity: 'v1.prisma' });
    expect(await generate({ prismaDir })).toEqual(['identity']);
    expect(existsSync(path.join(prismaDir, '../apps/fixture/src/generated/prisma/client.ts'))).toBe(true);

    useSchema(prismaDir, 'identity', 'broken.prisma');
    await expect(generate({ prismaDir })).rejects.toThrow(/identity: prisma generate failed[\s\S]*Missing/);
  });
});
