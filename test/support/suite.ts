/**
 * The whole Cairn suite for one end-to-end test file, started the way `npm start` starts it (every app its own
 * process, from `dist/`) but isolated from everything else on the machine: its own NATS server (own port, own
 * JetStream store; or a shared one in a namespace of its own, option `nats`), its own database on the shared PostgreSQL, its own Redis key/queue prefix, its own repository
 * folder and free ports. `stop()` removes all of it again.
 *
 * Environment knobs: `CAIRN_E2E_LOGS=inherit` echoes every app's output live (prefixed); `CAIRN_E2E_KEEP=1` keeps
 * the temporary folder (logs, repositories) and prints where it is; `CAIRN_E2E_ALLOW_STALE=1` runs even when a
 * source file is newer than the last build; `CAIRN_E2E_NATS_AUTH=1` runs every suite on a NATS server that requires the
 * per-service logins. Base URLs: `CAIRN_TEST_DATABASE_URL` (default
 * `postgresql://postgres@127.0.0.1:5432/postgres`, only its server and credentials are used), `REDIS_URL`.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  APPS, REPO_ROOT, deployMigrations, freePort, startSuite, tcpReachable, type RunningSuite,
} from '../../scripts/suite.mjs';
import { deleteRedisKeys } from './integration.js';
import { NATS_SERVICES, accountsConfig } from '../../scripts/nats-accounts.mjs';
import { startMinio } from './minio.js';
import { waitFor } from './wait.js';

export interface Account {
  username: string;
  password: string;
  /** `Basic …`, ready for the Authorization header. */
  basic: string;
}

export interface TestSuite {
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  /** The API URL of a path: `api('/user')` → `<baseUrl>/api/v1/user`. Absolute URLs are returned unchanged. */
  api: (path: string) => string;
  /** The public URL the apps were configured with (trailing slash). */
  rootUrl: string;
  sshPort: number;
  databaseUrl: string;
  /** The suite's environment (DATABASE_URL, NATS_URL, CAIRN__…), e.g. for running the CLI. */
  env: Record<string, string>;
  /** Where this suite keeps repositories and logs. */
  dataDir: string;
  /** Creates a site administrator with the real admin CLI. */
  createAdmin: () => Promise<Account>;
  /** Every app process of this suite (e.g. to stop one and watch the others degrade); `startApp` adds to it. */
  apps: { name: string; pid: number | undefined }[];
  /**
   * Starts an app left out with `without`, or stopped with `stopApp` (same environment, plus `env`: e.g. other
   * settings for a restarted repo-service); resolves once it answers.
   */
  startApp: (name: string, env?: Record<string, string>) => Promise<void>;
  /**
   * Stops one running app (SIGTERM, or `signal`: `SIGKILL` for a crash, then waits for the process to exit); the
   * others keep running. Its git child processes are not signalled: as after a real crash, they run on by themselves.
   */
  stopApp: (name: string, options?: { signal?: 'SIGTERM' | 'SIGKILL' }) => Promise<void>;
  /** The most recent output lines of an app (for assertion messages). */
  lastLines: (app: string, lines?: number) => string[];
  /** Each app's ops endpoint (`/livez`, `/readyz`, `/metrics`), `http://127.0.0.1:<port>`, by app name. */
  opsUrls: Record<string, string>;
  stop: () => Promise<void>;
}

export interface TestSuiteOptions {
  /** Extra environment for every app (e.g. `CAIRN__SECURITY__TWO_FACTOR_AUTH: 'enforced'`). */
  env?: Record<string, string>;
  /** Only these apps (default: all). */
  apps?: string[];
  /**
   * Run on this NATS server, shared with other suites, in this `[nats] NAMESPACE` (default: a private server of
   * its own, plain names).
   */
  nats?: { url: string; namespace: string };
  /** Apps not started with the others (e.g. `['merge-check-worker']`); `suite.startApp(name)` starts one later. */
  without?: string[];
  /**
   * The private NATS server requires logins: the generated per-service users of deploy/nats (random passwords),
   * each app logging in as its service (docs/nats-security.md). Also on for every suite with `CAIRN_E2E_NATS_AUTH=1`.
   */
  natsAuth?: boolean;
  /**
   * The PostgreSQL server to create the suite's database on (only its server and credentials are used; default
   * `CAIRN_TEST_DATABASE_URL` or the local one) — e.g. a server of the test's own that it may restart.
   */
  databaseUrl?: string;
  /** The Redis server (default `REDIS_URL` or the local one). */
  redisUrl?: string;
  /**
   * A database on the default server with every migration deployed, copied instead of deploying the migrations
   * (default: the one the e2e project's globalSetup made for this run, if any). Not used with `databaseUrl`.
   */
  templateDatabase?: string;
  /**
   * Where blobs live: `local` (a folder of the suite's), or `minio` (a private MinIO server of the suite's, as
   * `[storage] STORAGE_TYPE = minio`). Default: `CAIRN_E2E_STORAGE`, else local.
   */
  storage?: 'local' | 'minio';
}

const NATS_SERVER = process.env.CAIRN_TEST_NATS_SERVER ?? '/usr/sbin/nats-server';

export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** Starts an isolated suite; always pair with `await suite.stop()` (e.g. in `afterAll`). */
export async function startTestSuite(options: TestSuiteOptions = {}): Promise<TestSuite> {
  assertBuilt();
  const id = randomBytes(5).toString('hex');
  const dataDir = mkdtempSync(path.join(tmpdir(), `cairn-e2e-${id}-`));
  const cleanups: (() => Promise<void> | void)[] = [];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (err) {
        process.stderr.write(`e2e cleanup: ${(err as Error).message}\n`);
      }
    }
    cleanups.length = 0;
  };
  cleanups.push(() => {
    if (process.env.CAIRN_E2E_KEEP) process.stderr.write(`e2e: kept ${dataDir}\n`);
    else rmSync(dataDir, { recursive: true, force: true });
  });

  try {
    const natsAuth = !options.nats && (options.natsAuth ?? Boolean(process.env.CAIRN_E2E_NATS_AUTH));
    const passwords = Object.fromEntries(NATS_SERVICES.map((s) => [s.user, randomBytes(12).toString('hex')]));
    const natsUrl =
      options.nats?.url ?? (await startNats(dataDir, cleanups, natsAuth ? accountsConfig({ passwords }) : undefined));
    const login = (user: string) => ({ CAIRN__NATS__USER: user, CAIRN__NATS__PASSWORD: passwords[user] });
    // The suite's own probes (and the CLI) use the gateway's login; each app its own.
    const natsEnv = natsAuth ? login('gateway') : {};
    const appEnv = natsAuth ? Object.fromEntries(NATS_SERVICES.map((s) => [s.app, login(s.user)])) : undefined;
    // A copy of the run's migrated template (a tenth of a second) instead of deploying every migration (seconds).
    const template = options.databaseUrl ? undefined : (options.templateDatabase ?? (await provided(TEMPLATE_DATABASE)));
    const databaseUrl = await createDatabase(`cairn_e2e_${id}`, cleanups, options.databaseUrl, template);
    if (!template) await deployMigrations(databaseUrl);
    const redisUrl = options.redisUrl ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const queuePrefix = `cairn-e2e-${id}`;
    cleanups.push(() => deleteRedisKeys(redisUrl, queuePrefix));

    let storageEnv: Record<string, string> = {};
    if ((options.storage ?? process.env.CAIRN_E2E_STORAGE) === 'minio') {
      const minio = await startMinio();
      cleanups.push(() => minio.stop());
      storageEnv = minio.env('cairn');
    }

    const [httpPort, sshPort, repoInternalPort, runnersInternalPort, packagesInternalPort, ...opsPortList] = await distinctFreePorts(5 + APPS.length);
    const opsPorts = Object.fromEntries(APPS.map((a, i) => [a.name, opsPortList[i]]));
    const selected = (options.apps ?? APPS.map((a) => a.name)).filter((name) => !options.without?.includes(name));
    const startOptions = {
      databaseUrl,
      natsUrl,
      redisUrl,
      httpPort,
      sshPort,
      repoInternalPort,
      runnersInternalPort,
      opsPorts,
      packagesInternalPort,
      repoRoot: path.join(dataDir, 'repositories'),
      packagesStoragePath: path.join(dataDir, 'packages'),
      queuePrefix,
      natsNamespace: options.nats?.namespace,
      env: {
        RUN_MODE: 'test',
        CAIRN__SERVER__SSH_LISTEN_HOST: '127.0.0.1',
        CAIRN__SECURITY__INTERNAL_TOKEN: randomBytes(24).toString('hex'),
        CAIRN__SECURITY__SECRET_KEY: randomBytes(24).toString('hex'),
        ...natsEnv,
        ...storageEnv,
        ...options.env,
      },
      appEnv,
      output: process.env.CAIRN_E2E_LOGS === 'inherit' ? ('prefix' as const) : ('silent' as const),
      logDir: path.join(dataDir, 'logs'),
    };
    const suite: RunningSuite = await startSuite({ ...startOptions, apps: selected });
    cleanups.push(async () => {
      await suite.stop();
    });
    const later = new Map<string, RunningSuite>();
    const apps = [...suite.apps];
    const stopped = new Set<string>(options.without ?? []);
    let restarts = 0;
    const startApp = async (name: string, env: Record<string, string> = {}) => {
      if (!stopped.has(name)) throw new Error(`${name} is running, or not an app left out with \`without\``);
      // A restarted app logs into `logs/restart-<n>/<app>.log`, which keeps what came before a crash.
      restarts += 1;
      const started = await startSuite({
        ...startOptions,
        env: { ...startOptions.env, ...env },
        apps: [name],
        logDir: path.join(startOptions.logDir, `restart-${restarts}`),
      });
      stopped.delete(name);
      later.set(name, started);
      apps.push(...started.apps);
      cleanups.push(async () => {
        await started.stop();
      });
    };
    const stopApp = async (name: string, stopOptions: { signal?: 'SIGTERM' | 'SIGKILL' } = {}) => {
      const index = apps.findIndex((a) => a.name === name);
      const pid = apps[index]?.pid;
      if (index < 0 || !pid) throw new Error(`${name} is not running`);
      process.kill(pid, stopOptions.signal ?? 'SIGTERM');
      await waitFor(() => !processAlive(pid), `${name} to exit`);
      apps.splice(index, 1);
      stopped.add(name);
    };

    return {
      baseUrl: suite.baseUrl,
      api: apiUrls(suite.baseUrl),
      rootUrl: suite.rootUrl,
      sshPort: suite.sshPort,
      databaseUrl,
      env: suite.env,
      dataDir,
      apps,
      startApp,
      stopApp,
      lastLines: (app, lines) => (later.get(app) ?? suite).lastLines(app, lines),
      opsUrls: Object.fromEntries(APPS.map((a) => [a.name, `http://127.0.0.1:${opsPorts[a.name]}`])),
      createAdmin: () => createAdminWithCli(suite.env),
      stop: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/**
 * Creates a database on the default server (`CAIRN_TEST_DATABASE_URL` or the local one) with every migration deployed,
 * to be copied by {@link startTestSuite} (`templateDatabase`); `drop()` removes it.
 */
export async function createTemplateDatabase(): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `cairn_e2e_template_${randomBytes(5).toString('hex')}`;
  const cleanups: (() => Promise<void> | void)[] = [];
  const drop = async () => {
    for (const fn of cleanups.reverse()) await fn();
    cleanups.length = 0;
  };
  try {
    await deployMigrations(await createDatabase(name, cleanups));
    return { name, drop };
  } catch (err) {
    await drop();
    throw err;
  }
}

/** `api('/user')` → `<baseUrl>/api/v1/user`; absolute URLs unchanged. */
function apiUrls(baseUrl: string): (path: string) => string {
  return (p) => (/^https?:\/\//.test(p) ? p : `${baseUrl}/api/v1${p.startsWith('/') ? p : `/${p}`}`);
}

/**
 * The settings of the default shared suite: every file that needs nothing else shares it. Fast password hashing
 * (scrypt N=1024: sign-ins in tests are not what a test measures), webhooks allowed to call loopback receivers, quick
 * delivery retries, and no per-address sign-in limit: every file signs in from 127.0.0.1, and one file's failed
 * sign-ins must not throttle another's (the per-account limit stays; sign-in-throttle tests both on its own suite).
 */
export const SHARED_SUITE_ENV: Readonly<Record<string, string>> = Object.freeze({
  CAIRN__SECURITY__PASSWORD_HASH_ALGO: 'scrypt$1024$8$1',
  CAIRN__WEBHOOK__ALLOWED_HOST_LIST: 'loopback',
  CAIRN__WEBHOOK__RETRY_BASE_DELAY: '100ms',
  CAIRN__SECURITY__LOGIN_MAX_FAILURES_PER_ADDRESS: '0',
});

/** What a file may choose of a shared suite: its apps (default: all) and settings on top of {@link SHARED_SUITE_ENV}. */
export type SharedTestSuiteOptions = Pick<TestSuiteOptions, 'apps' | 'env'>;

/** The serialisable part of a started suite, as the shared-suite coordinator hands it to test files. */
export interface SharedSuiteDescription {
  /** Which shared suite (its canonical settings), for letting go of it. */
  key: string;
  baseUrl: string;
  rootUrl: string;
  sshPort: number;
  databaseUrl: string;
  env: Record<string, string>;
  dataDir: string;
  apps: { name: string; pid: number | undefined }[];
  opsUrls: Record<string, string>;
}

/** Where `test/support/shared-suites.ts` (the e2e project's globalSetup) listens; provided to every e2e file. */
export const SHARED_SUITES_URL = 'cairnSharedSuitesUrl';
/** The run's migrated template database (made by the same globalSetup). */
export const TEMPLATE_DATABASE = 'cairnE2eTemplateDatabase';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the shared-suite coordinator (e2e project only). */
    [SHARED_SUITES_URL]: string;
    /** The name of a database on the default server with every migration deployed, to copy (e2e project only). */
    [TEMPLATE_DATABASE]: string;
  }
}

/** A value the e2e project's globalSetup provided; undefined outside a Vitest worker or another project. */
async function provided(key: typeof SHARED_SUITES_URL | typeof TEMPLATE_DATABASE): Promise<string | undefined> {
  try {
    const { inject } = await import('vitest');
    return (inject(key) as string | undefined) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The settings a shared suite is started with, in one canonical form (sorted apps, sorted settings on top of
 * {@link SHARED_SUITE_ENV}): two files asking for the same settings get the same suite.
 */
export function sharedSuiteSettings(options: SharedTestSuiteOptions = {}): { apps: string[]; env: Record<string, string> } {
  const apps = [...new Set(options.apps ?? APPS.map((a) => a.name))].sort();
  const unknown = apps.filter((name) => !APPS.some((a) => a.name === name));
  if (unknown.length) throw new Error(`unknown app(s): ${unknown.join(', ')}`);
  const merged: Record<string, string> = { ...SHARED_SUITE_ENV, ...options.env };
  const env = Object.fromEntries(Object.keys(merged).sort().map((k) => [k, merged[k]]));
  return { apps, env };
}

/**
 * A suite shared with the other e2e files that ask for the same settings (started by the first of them; the default
 * one stopped when the whole run ends, another once no file holds it), for files that only use the suite: they isolate themselves by their own users, organizations
 * and repositories (`uniqueName`) and assert nothing about the instance as a whole. A file that stops or starts apps,
 * needs a private NATS, `without`, or settings no other file shares keeps `startTestSuite` (DEVELOPMENT.md).
 * `stop()` only lets go of the suite; `startApp`/`stopApp` refuse. Outside the e2e project (no coordinator) it starts
 * a private suite instead.
 */
export async function sharedTestSuite(options: SharedTestSuiteOptions = {}): Promise<TestSuite> {
  assertBuilt();
  const settings = sharedSuiteSettings(options);
  const coordinator = await provided(SHARED_SUITES_URL);
  if (!coordinator) return startTestSuite(settings);
  const description = await postJson<SharedSuiteDescription>(`${coordinator}/suites`, settings);
  const refuse = (what: string) => () =>
    Promise.reject(new Error(`${what}: this suite is shared with other test files; use startTestSuite() for a suite of the file's own`));
  const { key, ...shared } = description;
  let released = false;
  return {
    ...shared,
    api: apiUrls(description.baseUrl),
    createAdmin: () => createAdminWithCli(description.env),
    startApp: refuse('startApp'),
    stopApp: refuse('stopApp'),
    lastLines: (app, lines = 40) => logTail(path.join(description.dataDir, 'logs', `${app}.log`), lines),
    stop: async () => {
      if (released) return;
      released = true;
      await postJson(`${coordinator}/release`, { key });
    },
  };
}

/** The coordinator's answer to a JSON POST (node:http: a suite may take minutes to start, longer than fetch waits). */
function postJson<T>(url: string, body: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        if (res.statusCode === 200) return resolve(JSON.parse(text) as T);
        let message = text;
        try {
          message = (JSON.parse(text) as { message: string }).message;
        } catch {
          // not JSON: the text itself
        }
        reject(new Error(`shared suite: ${message}`));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** The last `lines` lines of a log file (a shared suite's apps write theirs under `<dataDir>/logs`). */
function logTail(file: string, lines: number): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0).slice(-lines);
}

/** Runs `cairn admin user create … --admin` (the real CLI) against the suite's database. */
async function createAdminWithCli(env: Record<string, string>): Promise<Account> {
  const username = `admin-${randomBytes(3).toString('hex')}`;
  const password = `Pw-${randomBytes(12).toString('hex')}`;
  const cli = path.join(REPO_ROOT, 'apps/identity-service/dist/cli/cairn-cli.js');
  const args = [
    cli, 'admin', 'user', 'create', '--username', username, '--password', password,
    '--email', `${username}@example.com`, '--admin', '--must-change-password=false',
  ];
  const { code, output } = await run(process.execPath, args, { ...process.env, ...env });
  if (code !== 0) throw new Error(`cairn admin user create failed (exit ${code}):\n${output}`);
  return { username, password, basic: basicAuth(username, password) };
}

async function startNats(dataDir: string, cleanups: (() => Promise<void> | void)[], config?: string): Promise<string> {
  if (!existsSync(NATS_SERVER)) throw new Error(`${NATS_SERVER} is missing: install nats-server (apt-get install nats-server)`);
  const port = await freePort();
  const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', path.join(dataDir, 'nats')];
  if (config !== undefined) {
    const file = path.join(dataDir, 'nats-server.conf');
    writeFileSync(file, config);
    args.unshift('-c', file);
  }
  const child = spawn(NATS_SERVER, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  });
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nats-server exited with code ${child.exitCode}: ${stderr}`);
    if (await tcpReachable('127.0.0.1', port, 500)) return `nats://127.0.0.1:${port}`;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nats-server did not listen on ${port}: ${stderr}`);
}

async function createDatabase(
  name: string,
  cleanups: (() => Promise<void> | void)[],
  server?: string,
  template?: string,
): Promise<string> {
  const base = new URL(server ?? process.env.CAIRN_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  const admin = new URL(base);
  admin.pathname = '/postgres';
  const target = new URL(base);
  target.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: admin.toString() });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await c.end();
    }
  });
  return target.toString();
}

export async function distinctFreePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/**
 * End-to-end tests run the built apps (`dist/`); `npm test` builds first. Running Vitest directly after editing a
 * source file would silently test old code, so refuse with the command to run instead.
 */
function assertBuilt(): void {
  if (process.env.CAIRN_E2E_ALLOW_STALE) return;
  const projects = [...APPS.map((a) => path.dirname(path.dirname(path.join(REPO_ROOT, a.main)))), ...['contracts', 'platform'].map((l) => path.join(REPO_ROOT, 'libs', l))];
  for (const dir of projects) {
    const stamp = path.join(dir, 'dist', '.tsbuildinfo');
    if (!existsSync(stamp)) throw new Error(`${path.relative(REPO_ROOT, dir)} is not built: run \`npm run build\` before the e2e tests`);
    const built = statSync(stamp).mtimeMs;
    const newer = newestSource(path.join(dir, 'src'));
    if (newer && newer.mtimeMs > built) {
      throw new Error(
        `${path.relative(REPO_ROOT, newer.file)} changed after the last build: run \`npm run build\` before the e2e tests`,
      );
    }
  }
}

function newestSource(dir: string): { file: string; mtimeMs: number } | null {
  if (!existsSync(dir)) return null;
  let best: { file: string; mtimeMs: number } | null = null;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || /\.(spec|int-spec)\.ts$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const { mtimeMs } = statSync(file);
    if (!best || mtimeMs > best.mtimeMs) best = { file, mtimeMs };
  }
  return best;
}

/** Whether a process with this pid is still running. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
