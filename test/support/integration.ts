/**
 * Plumbing shared by the integration tests (`apps/*\/src/**\/*.int-spec.ts` and the apps' `test/` harnesses): free
 * ports, a private nats-server per test file and a scratch PostgreSQL database per test file, migrated with
 * tools/migrate. Test files run in parallel processes, so nothing here is shared between two of them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
// @ts-ignore — plain ESM JavaScript without type declarations
import { deploy } from '../../tools/migrate/index.mjs';

/** The shared PostgreSQL server (no database part); every test file creates a database of its own on it. */
export const PG_SERVER = 'postgresql://postgres@127.0.0.1:5432';

const NATS_SERVER_BINARY = '/usr/sbin/nats-server';

/** A port nobody listens on right now, so parallel test processes never collide on a fixed one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Waits until something accepts connections on 127.0.0.1:`port` (a spawned server is not ready when spawned). */
export async function waitForPort(port: number, child?: ChildProcess, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`process exited with ${child.exitCode} before listening on ${port}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = tcpConnect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface PrivateNats {
  /** `nats://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Stops the server and removes its JetStream store. */
  stop(): Promise<void>;
}

/**
 * Starts a nats-server (JetStream on, random port, store in a temporary folder) for one test file: parallel test
 * processes sharing one NATS would answer each other's requests and consume each other's events. `config`: extra
 * nats-server configuration text (e.g. an `authorization` block); address, port and store stay the test's own.
 */
export async function startPrivateNats(options: { config?: string } = {}): Promise<PrivateNats> {
  const storeDir = mkdtempSync(path.join(tmpdir(), 'cairn-it-nats-'));
  const port = await freePort();
  const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir];
  if (options.config !== undefined) {
    const file = path.join(storeDir, 'nats-server.conf');
    writeFileSync(file, options.config);
    args.unshift('-c', file);
  }
  const child = spawn(NATS_SERVER_BINARY, args, { stdio: 'ignore' });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000).unref())]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(storeDir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `nats://127.0.0.1:${port}`, port, stop };
}

/** Runs one statement on `databaseUrl` with a connection of its own and returns the rows (assertions on rows). */
export async function sql<R extends pg.QueryResultRow = Record<string, unknown>>(
  databaseUrl: string,
  text: string,
  params: unknown[] = [],
): Promise<R[]> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return (await c.query<R>(text, params)).rows;
  } finally {
    await c.end();
  }
}

export interface ScratchDatabase {
  /** postgresql://…/<name> */
  url: string;
  name: string;
  /** Runs one statement on this database (see {@link sql}). */
  sql<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** Drops the database, disconnecting whoever is still connected. */
  drop(): Promise<void>;
}

/**
 * Creates `cairn_it_<area>_<random>` on the shared PostgreSQL and deploys the migrations of `services` (all when
 * omitted) with tools/migrate: each test file gets a database of its own, migrated exactly as production is.
 */
export async function createScratchDatabase(
  area: string,
  options: { services?: string[]; server?: string } = {},
): Promise<ScratchDatabase> {
  const server = options.server ?? PG_SERVER;
  const name = `cairn_it_${area}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const url = `${server}/${name}`;
  const admin = (text: string) => sql(`${server}/postgres`, text);
  await admin(`CREATE DATABASE "${name}"`);
  const drop = async () => {
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
  try {
    for (const service of options.services ?? [undefined]) await deploy({ databaseUrl: url, service, log: () => undefined });
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
  return {
    url,
    name,
    sql: <R extends pg.QueryResultRow = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<R>(url, text, params),
    drop,
  };
}

/** Deletes every Redis key under a prefix (a test run's queue prefix): what a suite or test environment leaves behind. */
export async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
