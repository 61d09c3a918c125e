// Shared helpers of the benchmarks that run the whole suite (gateway-user, merge-check, git-clone): a run's scratch
// folder and its clean-ups, infrastructure of its own (NATS server, database), the suite started from dist/ on free
// ports, and the first site admin and API calls. Starting and stopping apps is scripts/suite.mjs's job; this only
// isolates a benchmark run so that several can share a machine and nothing is left behind.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { APPS, REPO_ROOT, deployMigrations, freePort, startSuite, tcpReachable } from '../scripts/suite.mjs';

const NATS_SERVER = process.env.CAIRN_TEST_NATS_SERVER ?? '/usr/sbin/nats-server';
const SERVER_DB = process.env.CAIRN_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** Progress line on stderr (stdout carries the results). */
export const say = (line) => process.stderr.write(`bench: ${line}\n`);

/**
 * A benchmark run: a random `id` for its names, a scratch folder `<tmp>/<prefix>-<id>-…` (removed at the end unless
 * `keep`) and clean-ups, registered with `defer` and run last-in first-out by `cleanup()` — also on Ctrl-C. A failing
 * clean-up is printed and the others still run.
 */
export function benchRun(prefix, { keep = false } = {}) {
  const id = randomBytes(4).toString('hex');
  const dataDir = mkdtempSync(path.join(tmpdir(), `${prefix}-${id}-`));
  const cleanups = [];
  const cleanup = async () => {
    for (const fn of cleanups.splice(0).reverse()) await Promise.resolve().then(fn).catch((e) => console.error(`cleanup: ${e.message}`));
  };
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
  if (!keep) cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return { id, dataDir, defer: (...fns) => void cleanups.push(...fns), cleanup };
}

/** Stops a child process and resolves once it has exited (at once if it already has). */
export function stopChild(child) {
  return new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM'))));
}

/** A NATS server (JetStream, store in the run's folder) on a free port, stopped at the end; resolves with its URL. */
export async function startNatsServer(run) {
  const port = await freePort();
  const child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', path.join(run.dataDir, 'nats')], { stdio: 'ignore' });
  run.defer(() => stopChild(child));
  for (let i = 0; i < 100; i++) {
    if (await tcpReachable('127.0.0.1', port, 500)) return `nats://127.0.0.1:${port}`;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('nats-server did not start');
}

/**
 * A database `name` of its own on the test server (CAIRN_TEST_DATABASE_URL), with every migration deployed, dropped
 * at the end; resolves with its URL.
 */
export async function scratchDatabase(run, name) {
  const server = new URL(SERVER_DB);
  const onServer = async (sql) => {
    const c = new pg.Client({ connectionString: server.toString() });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await onServer(`CREATE DATABASE "${name}"`);
  run.defer(() => onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  const databaseUrl = Object.assign(new URL(server), { pathname: `/${name}` }).toString();
  await deployMigrations(databaseUrl);
  return databaseUrl;
}

/** `count` distinct free ports. */
export async function freePorts(count) {
  const ports = new Set();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/**
 * The suite from dist/ (`apps`: names, default all) on free ports, its repositories and logs in the run's folder,
 * apps silent; stopped at the end, and then its Redis keys removed. `options` are the rest of `startSuite`'s
 * (databaseUrl, natsUrl, redisUrl, env…); `queuePrefix` is required and must start with `cairn-bench-`.
 */
export async function startBenchSuite(run, options) {
  // The prefix's keys are deleted at the end: never those of a real instance (`cairn`, the default).
  if (!options.queuePrefix?.startsWith('cairn-bench-')) throw new Error(`a benchmark's queuePrefix starts with cairn-bench-`);
  const [httpPort, sshPort, repoInternalPort, runnersInternalPort, packagesInternalPort, ...opsPortList] = await freePorts(5 + APPS.length);
  const suite = await startSuite({
    httpPort,
    sshPort,
    repoInternalPort,
    runnersInternalPort,
    opsPorts: Object.fromEntries(APPS.map((a, i) => [a.name, opsPortList[i]])),
    packagesInternalPort,
    repoRoot: path.join(run.dataDir, 'repositories'),
    packagesStoragePath: path.join(run.dataDir, 'packages'),
    output: 'silent',
    logDir: path.join(run.dataDir, 'logs'),
    ...options,
  });
  // Every queue of every app leaves keys under the prefix (at least its `meta`); after the apps have stopped.
  run.defer(() => deleteKeys(suite.env.REDIS_URL, `${options.queuePrefix}:*`), () => suite.stop());
  return suite;
}

async function deleteKeys(redisUrl, pattern) {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * The whole suite isolated for one run, as production runs it: its own NATS server and database, `RUN_MODE=prod`
 * with random secrets, and a site admin; resolves with the suite, its database URL and the admin's name and Basic
 * credentials.
 */
export async function startProdBenchSuite(run, extraEnv = {}) {
  const natsUrl = await startNatsServer(run);
  const databaseUrl = await scratchDatabase(run, `cairn_bench_${run.id}`);
  say('starting the suite');
  const suite = await startBenchSuite(run, {
    databaseUrl,
    natsUrl,
    queuePrefix: `cairn-bench-${run.id}`,
    env: { RUN_MODE: 'prod', CAIRN__SECURITY__SECRET_KEY: randomBytes(24).toString('hex'), CAIRN__SECURITY__INTERNAL_TOKEN: randomBytes(24).toString('hex'), ...extraEnv },
  });
  const adminName = `bench-admin-${run.id}`;
  const adminPw = `Pw-${randomBytes(9).toString('hex')}`;
  await createSiteAdmin(suite, adminName, adminPw);
  return { suite, databaseUrl, adminName, adminBasic: basicAuth(adminName, adminPw) };
}

/** Creates a site admin `username` (e-mail `<username>@example.com`) with the real CLI, as an operator would. */
export function createSiteAdmin(suite, username, password) {
  const cli = path.join(REPO_ROOT, 'apps/identity-service/dist/cli/cairn-cli.js');
  const args = [cli, 'admin', 'user', 'create', '--username', username, '--password', password, '--email', `${username}@example.com`,
    '--admin', '--must-change-password=false'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: { ...process.env, ...suite.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`admin user create exited ${code}: ${out}`))));
  });
}

/** `username:password` as an HTTP Basic `authorization` value. */
export function basicAuth(username, password) {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** POSTs JSON; resolves with the parsed answer, which must be `201 Created`. */
export async function postJson(url, authorization, body) {
  const res = await fetch(url, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST ${url} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

/**
 * Starts the benchmark's own script (`self`) as its bare floor server — `--bare --port <free port> …args` — and
 * resolves with its origin once it prints `listening`; stopped at the end of the run.
 */
export async function startBareFloor(run, self, args) {
  const port = await freePort();
  const bare = spawn(process.execPath, [self, '--bare', '--port', String(port), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  run.defer(() => stopChild(bare));
  await new Promise((resolve, reject) => {
    bare.stdout.on('data', (d) => d.toString().includes('listening') && resolve());
    bare.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
  });
  return `http://127.0.0.1:${port}`;
}

/**
 * The usual start of an API benchmark: a suite on infrastructure of its own (NATS server, database, Redis prefix;
 * production mode, fresh secrets) and a site admin created with the real CLI, holding a token of `scopes`.
 */
export async function startSuiteWithAdmin(run, scopes) {
  const { suite, databaseUrl, adminName, adminBasic } = await startProdBenchSuite(run);
  const created = await postJson(`${suite.baseUrl}/api/v1/users/${adminName}/tokens`, adminBasic, { name: 'bench', scopes });
  return { suite, databaseUrl, adminName, headers: { authorization: `token ${created.sha1}` } };
}

/**
 * The bare floor's side of {@link startBareFloor}: listens on loopback `port`, says `listening`, and on SIGTERM/SIGINT
 * closes the server and its pg pool and exits.
 */
export async function serveBareFloor(app, pool, port) {
  await app.listen({ port, host: '127.0.0.1' });
  process.stdout.write('listening\n');
  const stop = async () => {
    await app.close();
    await pool.end();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
