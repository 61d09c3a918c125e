/**
 * PostgreSQL, Redis and NATS (JetStream) servers of one test's own, on free ports with their data in a temporary
 * folder, that the test may stop and start again — the shared servers of the machine serve every other suite running
 * at the same time and must never be restarted. Started with the same code as `npm start` uses for a local
 * installation (scripts/suite.mjs `ensurePostgres`/`ensureRedis`/`ensureNats`); Redis keeps an append-only file, so a
 * restart keeps its queues like a durable production Redis.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureNats, ensurePostgres, ensureRedis } from '../../scripts/suite.mjs';
import { distinctFreePorts } from './suite.js';

export type InfraService = 'postgres' | 'redis' | 'nats';

export interface PrivateInfrastructure {
  databaseUrl: string;
  redisUrl: string;
  natsUrl: string;
  dataDir: string;
  /** Stops one server (PostgreSQL: fast shutdown, cutting every connection) and starts it again on the same port and data. */
  restart: (service: InfraService) => Promise<void>;
  /** Stops one server; `start` brings it back. */
  stop: (service: InfraService) => Promise<void>;
  start: (service: InfraService) => Promise<void>;
  /** Stops every server and removes the data. */
  close: () => Promise<void>;
}

export async function startPrivateInfrastructure(log: (line: string) => void = () => undefined): Promise<PrivateInfrastructure> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cairn-infra-'));
  // As root, PostgreSQL runs as the `postgres` user: it must be able to reach its data folder inside this one.
  chmodSync(dataDir, 0o755);
  const [pgPort, redisPort, natsPort] = await distinctFreePorts(3);
  const urls: Record<InfraService, string> = {
    postgres: `postgresql://postgres@127.0.0.1:${pgPort}/postgres`,
    redis: `redis://127.0.0.1:${redisPort}`,
    nats: `nats://127.0.0.1:${natsPort}`,
  };
  const starters: Record<InfraService, () => Promise<(() => Promise<void>) | null>> = {
    postgres: () => ensurePostgres(urls.postgres, dataDir, log),
    redis: () => ensureRedis(urls.redis, dataDir, log, { persist: true }),
    nats: () => ensureNats(urls.nats, dataDir, log, process.env),
  };
  const stops = new Map<InfraService, () => Promise<void>>();
  const start = async (service: InfraService) => {
    if (stops.has(service)) throw new Error(`${service} is running`);
    const stop = await starters[service]();
    if (!stop) throw new Error(`something else already answers at ${urls[service]}`);
    stops.set(service, stop);
  };
  const stop = async (service: InfraService) => {
    const fn = stops.get(service);
    if (!fn) throw new Error(`${service} is not running`);
    stops.delete(service);
    await fn();
  };
  const close = async () => {
    for (const service of [...stops.keys()]) await stop(service).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (const service of ['postgres', 'redis', 'nats'] as const) await start(service);
  } catch (err) {
    await close();
    throw err;
  }
  return {
    databaseUrl: urls.postgres,
    redisUrl: urls.redis,
    natsUrl: urls.nats,
    dataDir,
    start,
    stop,
    restart: async (service) => {
      await stop(service);
      await start(service);
    },
    close,
  };
}
