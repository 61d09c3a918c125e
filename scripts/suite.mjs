// How the suite runs (apps, environment, processes, infrastructure) for `npm start` and the e2e tests; plain
// JavaScript so it runs before any build.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants, createWriteStream, existsSync, mkdirSync, openSync, readdirSync, readFileSync, closeSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** Apps run with it as their working directory. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @typedef {object} AppSpec
 * @property {string} name      the app's folder under apps/
 * @property {string} main      entry point, relative to the repository root
 * @property {string | null} service  the name in `<service>.health.check` (null: the gateway, checked over HTTP)
 * @property {number} opsPort  its local default `[ops] PORT` (`/livez`, `/readyz`, `/metrics`; libs/platform OPS_DEFAULT_PORTS)
 */

/** @type {readonly AppSpec[]} Every app of the suite; each runs as its own process, `node apps/<app>/dist/main.js`. */
export const APPS = Object.freeze([
  { name: 'identity-service', main: 'apps/identity-service/dist/main.js', service: 'identity', opsPort: 9102 },
  { name: 'repo-service', main: 'apps/repo-service/dist/main.js', service: 'repo', opsPort: 9103 },
  { name: 'hooks-service', main: 'apps/hooks-service/dist/main.js', service: 'hooks', opsPort: 9104 },
  { name: 'runners-service', main: 'apps/runners-service/dist/main.js', service: 'runners', opsPort: 9105 },
  { name: 'packages-service', main: 'apps/packages-service/dist/main.js', service: 'packages', opsPort: 9106 },
  { name: 'merge-check-worker', main: 'apps/merge-check-worker/dist/main.js', service: 'merge-check', opsPort: 9107 },
  { name: 'gateway', main: 'apps/gateway/dist/main.js', service: null, opsPort: 9101 },
]);

/** Identical to the apps' own (libs/platform `commonSettings`). */
export const DEFAULTS = Object.freeze({
  databaseUrl: 'postgresql://postgres@127.0.0.1:5432/cairn',
  natsUrl: 'nats://127.0.0.1:4222',
  redisUrl: 'redis://127.0.0.1:6379',
  httpPort: 3000,
  sshPort: 2222,
  repoInternalPort: 3001,
  runnersInternalPort: 3002,
  packagesInternalPort: 3003,
  repoRoot: 'data/repositories',
  queuePrefix: 'cairn',
  natsNamespace: '',
});

/** Printed without a stack. */
export class SuiteError extends Error {
  name = 'SuiteError';
}

/**
 * @typedef {object} SuiteConfig
 * @property {string} [databaseUrl]
 * @property {string} [natsUrl]
 * @property {string} [redisUrl]
 * @property {number} [httpPort]        gateway HTTP port
 * @property {number} [sshPort]         repo-service SSH port
 * @property {string} [rootUrl]         public URL (default `http://localhost:<httpPort>/`)
 * @property {string} [repoRoot]        bare repositories (relative paths are relative to the repository root)
 * @property {number} [repoInternalPort] repo-service's internal HTTP port (git transport)
 * @property {string} [repoInternalUrl] where the gateway reaches it (default `http://127.0.0.1:<repoInternalPort>`)
 * @property {number} [runnersInternalPort] runners-service's internal HTTP port (the Actions runner protocol)
 * @property {string} [runnersInternalUrl] where the gateway reaches it (default `http://127.0.0.1:<runnersInternalPort>`)
 * @property {number} [packagesInternalPort] packages-service's internal HTTP port (the package registries)
 * @property {string} [packagesInternalUrl] where the gateway reaches it (default `http://127.0.0.1:<packagesInternalPort>`)
 * @property {string} [packagesStoragePath] package blobs (`[packages] STORAGE_PATH`; relative paths are relative to the repository root; default: the setting's own)
 * @property {string} [queuePrefix]     BullMQ queue / Redis key prefix
 * @property {string} [natsNamespace]   NATS namespace of the installation (`[nats] NAMESPACE`; '' = plain names)
 * @property {Record<string, number>} [opsPorts] each app's ops port (`[ops] PORT`), by app name (default: its `opsPort`)
 * @property {Record<string, string | undefined>} [env] extra environment (wins over everything above)
 */

/** On top of the caller's environment. @param {SuiteConfig} [config] @returns {Record<string, string>} */
export function suiteEnv(config = {}) {
  const httpPort = config.httpPort ?? DEFAULTS.httpPort;
  const internalPort = config.repoInternalPort ?? DEFAULTS.repoInternalPort;
  const runnersPort = config.runnersInternalPort ?? DEFAULTS.runnersInternalPort;
  const packagesPort = config.packagesInternalPort ?? DEFAULTS.packagesInternalPort;
  const rootUrl = withSlash(config.rootUrl ?? `http://localhost:${httpPort}/`);
  /** @type {Record<string, string>} */
  const env = {
    DATABASE_URL: config.databaseUrl ?? DEFAULTS.databaseUrl,
    NATS_URL: config.natsUrl ?? DEFAULTS.natsUrl,
    REDIS_URL: config.redisUrl ?? DEFAULTS.redisUrl,
    CAIRN__SERVER__HTTP_PORT: String(httpPort),
    CAIRN__SERVER__SSH_PORT: String(config.sshPort ?? DEFAULTS.sshPort),
    CAIRN__SERVER__ROOT_URL: rootUrl,
    CAIRN__REPOSITORY__ROOT: path.resolve(REPO_ROOT, config.repoRoot ?? DEFAULTS.repoRoot),
    CAIRN__CAIRN__REPO_INTERNAL_PORT: String(internalPort),
    CAIRN__CAIRN__REPO_INTERNAL_URL: config.repoInternalUrl ?? `http://127.0.0.1:${internalPort}`,
    CAIRN__CAIRN__RUNNERS_INTERNAL_PORT: String(runnersPort),
    CAIRN__CAIRN__RUNNERS_INTERNAL_URL: config.runnersInternalUrl ?? `http://127.0.0.1:${runnersPort}`,
    CAIRN__CAIRN__PACKAGES_INTERNAL_PORT: String(packagesPort),
    CAIRN__CAIRN__PACKAGES_INTERNAL_URL: config.packagesInternalUrl ?? `http://127.0.0.1:${packagesPort}`,
    CAIRN__QUEUE__PREFIX: config.queuePrefix ?? DEFAULTS.queuePrefix,
    CAIRN__NATS__NAMESPACE: config.natsNamespace ?? DEFAULTS.natsNamespace,
  };
  // Only when asked: otherwise the installation's own setting (environment, app.ini) or the app's default applies.
  if (config.packagesStoragePath) env.CAIRN__PACKAGES__STORAGE_PATH = path.resolve(REPO_ROOT, config.packagesStoragePath);
  for (const [k, v] of Object.entries(config.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** @param {string} url */
function withSlash(url) {
  return url.endsWith('/') ? url : `${url}/`;
}

/**
 * @typedef {SuiteConfig & {
 *   apps?: string[],
 *   output?: 'prefix' | 'silent',
 *   outputFilter?: (line: string) => boolean,
 *   logDir?: string,
 *   readyTimeoutMs?: number,
 *   maxReadyMs?: number,
 *   onWaiting?: (status: string) => void,
 *   signal?: AbortSignal,
 *   onUnexpectedExit?: (app: string, code: number | null, signal: string | null) => void,
 *   restart?: { baseDelayMs: number, maxDelayMs: number, stableMs: number } | null,
 *   appEnv?: Record<string, Record<string, string>>,
 *   onRestart?: (app: string, code: number | null, signal: string | null, delayMs: number) => void,
 * }} StartOptions
 * `apps`: a subset of {@link APPS} by name (default: all). `output`: `prefix` writes every line to stdout as
 * `[app] line` (only lines `outputFilter` accepts, if given); `silent` keeps only the last lines in memory (for
 * error messages). `logDir`: also append each app's
 * output to `<logDir>/<app>.log` (truncated at start). `readyTimeoutMs`: how long an app that is not ready yet may
 * go without progress — CPU time used or a line printed — before start-up fails (default 90 s; on a loaded machine
 * an app that keeps working is waited for, up to `maxReadyMs`, default 10 min). `onWaiting`: told every 30 s which
 * apps are still starting and how busy they are. `signal`: aborting it while waiting stops the apps again and rejects.
 * `onUnexpectedExit`: called when an app exits after the suite was ready and before `stop()` (without `restart`).
 * `appEnv`: extra environment of one app, by app name (e.g. its own NATS user).
 * `restart`: restart an app that exits after the suite was ready, after `baseDelayMs` doubled per consecutive crash
 * up to `maxDelayMs` (a run of `stableMs` or more starts the count over); `onRestart` is told each time.
 */

/**
 * @typedef {object} RunningSuite
 * @property {string} baseUrl   `http://127.0.0.1:<httpPort>` (no trailing slash)
 * @property {string} rootUrl   the public URL the apps were given (trailing slash)
 * @property {number} httpPort
 * @property {number} sshPort
 * @property {Record<string, string>} env  the suite's own environment (without the caller's)
 * @property {{ name: string, pid: number | undefined }[]} apps  the processes started first
 * @property {Record<string, string>} opsUrls  each started app's ops endpoint, `http://127.0.0.1:<port>`, by app name
 * @property {(app: string, lines?: number) => string[]} lastLines  the app's most recent output lines
 * @property {(options?: { timeoutMs?: number }) => Promise<{ killed: string[] }>} stop
 *   SIGTERM to every app, wait, SIGKILL whatever is left; resolves when every process is gone
 */

const KEEP_LINES = 200;
const COLORS = [36, 33, 35, 32, 34, 31];

/**
 * On failure everything started is stopped and a {@link SuiteError} names the app that did not come up, with its last
 * log lines.
 * @param {StartOptions} [options] @returns {Promise<RunningSuite>}
 */
export async function startSuite(options = {}) {
  const env = suiteEnv(options);
  const httpPort = Number(env.CAIRN__SERVER__HTTP_PORT);
  const selected = options.apps ? APPS.filter((a) => options.apps?.includes(a.name)) : [...APPS];
  const unknown = (options.apps ?? []).filter((n) => !APPS.some((a) => a.name === n));
  if (unknown.length) throw new SuiteError(`unknown app(s): ${unknown.join(', ')}`);
  const missing = selected.filter((a) => !existsSync(path.join(REPO_ROOT, a.main)));
  if (missing.length) {
    throw new SuiteError(
      `not built: ${missing.map((a) => a.main).join(', ')} — run \`npm run build\` first` +
        ' (it prints the compile errors if there are any)',
    );
  }
  if (options.logDir) mkdirSync(options.logDir, { recursive: true });

  const color = process.stdout.isTTY && !process.env.NO_COLOR;
  const width = Math.max(...selected.map((a) => a.name.length));
  let stopping = false;
  let ready = false;
  /** @type {Map<string, ChildState>} */
  const children = new Map();

  // Each app its own ops port (one machine); `CAIRN__OPS__PORT=0` lets every app pick a free one (a second
  // installation).
  const inheritedOpsPort = env.CAIRN__OPS__PORT ?? process.env.CAIRN__OPS__PORT;
  const opsPortOf = (/** @type {AppSpec} */ app) =>
    options.opsPorts?.[app.name] ?? (inheritedOpsPort === '0' ? 0 : app.opsPort);
  // No port known (an app listed without `opsPort`): it uses its own default.
  const opsEnv = (/** @type {number | undefined} */ port) => (port === undefined ? {} : { CAIRN__OPS__PORT: String(port) });

  /** @type {Set<NodeJS.Timeout>} restarts waiting for their back-off */
  const pendingRestarts = new Set();
  const restart = options.restart ?? null;

  const spawnApp = (/** @type {AppSpec} */ app, /** @type {number} */ i, /** @type {number} */ crashes) => {
    const child = spawn(process.execPath, [app.main], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env, ...opsEnv(opsPortOf(app)), ...options.appEnv?.[app.name] },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const label = `[${app.name.padEnd(width)}]`;
    const prefix = color ? `\x1b[${COLORS[i % COLORS.length]}m${label}\x1b[0m ` : `${label} `;
    const previous = children.get(app.name);
    // A restarted app appends to its log file: the lines before the crash say why it crashed.
    const file = options.logDir
      ? createWriteStream(path.join(options.logDir, `${app.name}.log`), { flags: previous ? 'a' : 'w' })
      : null;
    /** @type {ChildState} */
    // 'exit', not 'close': a lingering grandchild (a git process) holding the pipes must not make stop() hang.
    const state = {
      app,
      child,
      lines: previous?.lines ?? [],
      exit: null,
      exited: new Promise((r) => (child.once('exit', r), child.once('error', r))),
      file,
      startedAt: Date.now(),
      lastLineAt: Date.now(),
    };
    const onLine = (/** @type {string} */ line) => {
      state.lastLineAt = Date.now();
      state.lines.push(line);
      if (state.lines.length > KEEP_LINES) state.lines.shift();
      if (options.output === 'prefix' && (!options.outputFilter || options.outputFilter(line))) {
        process.stdout.write(`${prefix}${line}\n`);
      }
      file?.write(`${line}\n`);
    };
    splitLines(child.stdout, onLine);
    splitLines(child.stderr, onLine);
    child.on('error', (err) => {
      onLine(`(could not start: ${err.message})`);
      if (child.pid === undefined) state.exit ??= { code: null, signal: null };
    });
    child.once('exit', (code, signal) => {
      state.exit = { code, signal };
      if (!ready || stopping) return;
      if (!restart) {
        options.onUnexpectedExit?.(app.name, code, signal);
        return;
      }
      // Crash loop protection: the delay doubles per crash (capped) and starts over once an app ran for a while.
      const ranMs = Date.now() - state.startedAt;
      const n = ranMs >= restart.stableMs ? 0 : crashes + 1;
      const delayMs = Math.min(restart.maxDelayMs, restart.baseDelayMs * 2 ** n);
      options.onRestart?.(app.name, code, signal, delayMs);
      const timer = setTimeout(() => {
        pendingRestarts.delete(timer);
        if (!stopping) spawnApp(app, i, n);
      }, delayMs);
      pendingRestarts.add(timer);
    });
    child.once('close', () => file?.end());
    children.set(app.name, state);
  };
  selected.forEach((app, i) => spawnApp(app, i, 0));

  /** @param {{ timeoutMs?: number }} [stopOptions] */
  const stop = async (stopOptions = {}) => {
    stopping = true;
    for (const t of pendingRestarts) clearTimeout(t);
    pendingRestarts.clear();
    const timeoutMs = stopOptions.timeoutMs ?? 20_000;
    const alive = [...children.values()].filter((s) => s.exit === null);
    for (const s of alive) s.child.kill('SIGTERM');
    const allGone = Promise.all(alive.map((s) => s.exited));
    const timer = sleep(timeoutMs, 'timeout', { ref: false });
    /** @type {string[]} */
    const killed = [];
    if ((await Promise.race([allGone, timer])) === 'timeout') {
      for (const s of alive) {
        if (s.exit === null) {
          killed.push(s.app.name);
          s.child.kill('SIGKILL');
        }
      }
      await allGone;
    }
    return { killed };
  };

  const baseUrl = `http://127.0.0.1:${httpPort}`;
  try {
    await waitReady({
      baseUrl,
      natsUrl: env.NATS_URL,
      natsNamespace: env.CAIRN__NATS__NAMESPACE ?? '',
      env: { ...process.env, ...env },
      services: selected.filter((a) => a.service).map((a) => /** @type {{name: string, service: string}} */ (a)),
      hasGateway: selected.some((a) => a.service === null),
      children,
      stallMs: options.readyTimeoutMs ?? 90_000,
      maxMs: options.maxReadyMs ?? 600_000,
      onWaiting: options.onWaiting,
      signal: options.signal,
    });
  } catch (err) {
    await stop({ timeoutMs: 5_000 });
    throw err;
  }
  ready = true;

  return {
    baseUrl,
    rootUrl: env.CAIRN__SERVER__ROOT_URL,
    httpPort,
    sshPort: Number(env.CAIRN__SERVER__SSH_PORT),
    env,
    apps: [...children.values()].map((s) => ({ name: s.app.name, pid: s.child.pid })),
    opsUrls: Object.fromEntries(selected.map((a) => [a.name, `http://127.0.0.1:${opsPortOf(a)}`])),
    lastLines: (name, n = 40) => (children.get(name)?.lines ?? []).slice(-n),
    stop,
  };
}

/**
 * @typedef {object} ChildState
 * @property {AppSpec} app
 * @property {import('node:child_process').ChildProcess} child
 * @property {string[]} lines
 * @property {{ code: number | null, signal: string | null } | null} exit
 * @property {Promise<unknown>} exited
 * @property {import('node:fs').WriteStream | null} file
 * @property {number} startedAt
 * @property {number} lastLineAt  when it last printed a line (start-up progress)
 */

/** @param {import('node:stream').Readable | null} stream @param {(line: string) => void} onLine */
function splitLines(stream, onLine) {
  if (!stream) return;
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (/** @type {string} */ chunk) => {
    rest += chunk;
    let i;
    while ((i = rest.indexOf('\n')) >= 0) {
      onLine(rest.slice(0, i).replace(/\r$/, ''));
      rest = rest.slice(i + 1);
    }
  });
  stream.on('end', () => {
    if (rest) onLine(rest);
    rest = '';
  });
}

/** CPU seconds a process has used (Linux /proc), or null where that cannot be read. @param {number | undefined} pid */
function cpuSeconds(pid) {
  if (!pid) return null;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** CPU time since the last look, or a line printed. @param {Map<string, ChildState>} children */
function startProgress(children) {
  const cpuSeen = new Map();
  const lastProgress = new Map([...children.keys()].map((name) => [name, Date.now()]));
  return {
    /** Records progress since the last call. @param {string[]} names */
    look(names) {
      for (const name of names) {
        const s = children.get(name);
        if (!s) continue;
        const cpu = cpuSeconds(s.child.pid);
        const before = cpuSeen.get(name);
        cpuSeen.set(name, cpu);
        // 50 ms of CPU between looks: an app loading modules or migrating, not one idling on a timer.
        const busy = cpu !== null && before !== undefined && before !== null && cpu - before >= 0.05;
        const last = Math.max(lastProgress.get(name) ?? 0, s.lastLineAt, busy ? Date.now() : 0);
        lastProgress.set(name, last);
      }
    },
    /** @param {string} name */
    idleMs: (name) => Date.now() - (lastProgress.get(name) ?? Date.now()),
    /** @param {string} name */
    describe(name) {
      const s = children.get(name);
      const cpu = cpuSeen.get(name);
      const parts = [];
      if (cpu !== undefined && cpu !== null) parts.push(`${cpu.toFixed(1)} s of CPU`);
      if (s) parts.push(`last output ${Math.round((Date.now() - s.lastLineAt) / 1000)} s ago`);
      return parts.join(', ');
    },
  };
}

/**
 * An app idle for `stallMs`, or not ready after `maxMs` however busy, fails the start with its last lines.
 * @param {{ baseUrl: string, natsUrl: string, natsNamespace: string, services: { name: string, service: string }[],
 * env: Record<string, string | undefined>, hasGateway: boolean, children: Map<string, ChildState>,
 * stallMs: number, maxMs: number, onWaiting?: (status: string) => void, signal?: AbortSignal }} o
 */
async function waitReady(o) {
  const started = Date.now();
  const { connect } = await import('@nats-io/transport-node');
  // The apps are built by now: their own rule maps subjects into the installation's namespace.
  const { NatsNamespace } = await import('@cairn/platform');
  const namespace = new NatsNamespace(o.natsNamespace);
  /** @type {import('@nats-io/transport-node').NatsConnection | null} */
  let nc = null;
  /** @type {Map<string, string>} app → why it is not ready yet */
  const pending = new Map([
    ...o.services.map((s) => /** @type {const} */ ([s.name, `no answer on ${s.service}.health.check yet`])),
    ...(o.hasGateway ? [/** @type {const} */ (['gateway', 'GET /readyz has not answered yet'])] : []),
  ]);
  const progress = startProgress(o.children);
  let toldAt = started;
  try {
    while (pending.size) {
      if (o.signal?.aborted) throw new SuiteError('start-up was interrupted');
      for (const s of o.children.values()) {
        if (s.exit) {
          const how = s.exit.signal ? `was killed by ${s.exit.signal}` : `exited with code ${s.exit.code}`;
          throw new SuiteError(`${s.app.name} ${how} before the suite was ready.\n${tail(s)}`);
        }
      }
      progress.look([...pending.keys()]);
      const stalled = [...pending.keys()].filter((name) => progress.idleMs(name) > o.stallMs);
      const overall = Date.now() - started > o.maxMs;
      if (stalled.length || overall) {
        const slow = stalled.length ? stalled : [...pending.keys()];
        const lines = slow.map((name) => {
          const s = o.children.get(name);
          return `${name} (${progress.describe(name)}): ${pending.get(name)}\n${s ? tail(s) : ''}`;
        });
        const headline = overall
          ? `the suite was not ready after ${Math.round(o.maxMs / 1000)} s although its apps kept working`
          : `the suite was not ready: ${slow.join(', ')} made no progress for ${Math.round(o.stallMs / 1000)} s`;
        throw new SuiteError(`${headline}:\n${lines.join('\n')}`);
      }
      if (o.onWaiting && Date.now() - toldAt >= 30_000) {
        toldAt = Date.now();
        const waiting = [...pending.keys()].map((name) => `${name} (${progress.describe(name)})`);
        o.onWaiting(`still starting after ${Math.round((Date.now() - started) / 1000)} s: ${waiting.join('; ')}`);
      }
      if (!nc && o.services.length) {
        const options = await probeNatsOptions(o.natsUrl, o.env);
        nc = await connect({ ...options, name: 'cairn-suite-probe', timeout: 2_000 }).catch(() => null);
      }
      await Promise.all(
        [...pending.keys()].map(async (name) => {
          const svc = o.services.find((s) => s.name === name);
          const why = svc ? await serviceHealth(nc, namespace, svc.service) : await gatewayReady(o.baseUrl);
          if (why === null) pending.delete(name);
          else pending.set(name, why);
        }),
      );
      if (pending.size) await sleep(250);
    }
  } finally {
    await nc?.close().catch(() => undefined);
  }
}

/**
 * Framed the way Nest's NATS transport frames requests.
 * @param {import('@nats-io/transport-node').NatsConnection | null} nc
 * @param {import('@cairn/platform').NatsNamespace} namespace @param {string} service
 * @returns {Promise<string | null>} null when healthy, else why not
 */
async function serviceHealth(nc, namespace, service) {
  const subject = namespace.subject(`${service}.health.check`);
  if (!nc) return 'NATS is not reachable';
  try {
    const msg = await nc.request(subject, JSON.stringify({ pattern: subject, data: {}, id: randomUUID() }), {
      timeout: 2_000,
    });
    const reply = JSON.parse(msg.string());
    if (reply?.response?.ok === true) return null;
    return `${subject} answered ${JSON.stringify(reply?.response ?? reply?.err ?? reply)}`;
  } catch (err) {
    return `no answer on ${subject} (${/** @type {Error} */ (err).message})`;
  }
}

/** @param {string} baseUrl @returns {Promise<string | null>} */
async function gatewayReady(baseUrl) {
  try {
    const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) });
    const text = await res.text();
    return res.status === 200 ? null : `GET /readyz answered ${res.status} ${text.slice(0, 300)}`;
  } catch (err) {
    return `GET /readyz failed (${/** @type {Error} */ (err).message})`;
  }
}

/** @param {ChildState} s */
function tail(s) {
  const lines = s.lines.slice(-25);
  return lines.length ? lines.map((l) => `    | ${l}`).join('\n') : '    | (no output)';
}

/** A server requiring credentials refuses a probe without them. @param {string} natsUrl @param {Record<string, string | undefined>} env */
async function probeNatsOptions(natsUrl, env) {
  try {
    const platform = await import('@cairn/platform');
    const auth = platform.loadSettings(platform.natsAuthSettings, env);
    // A per-service user (docs/nats-security.md) may receive replies on its own inbox prefix only.
    return platform.natsConnectionOptions({ ...auth, natsUrl }, auth.natsUser || undefined);
  } catch (err) {
    if (/** @type {any} */ (err)?.code === 'ERR_MODULE_NOT_FOUND') return { servers: natsUrl.split(',') };
    throw new SuiteError(/** @type {Error} */ (err).message);
  }
}

/**
 * @typedef {object} InfrastructureOptions
 * @property {string} databaseUrl
 * @property {string} natsUrl
 * @property {string} redisUrl
 * @property {string} [dataDir]  where locally started servers keep their data and logs (default `<repo>/.cairn`)
 * @property {Record<string, string | undefined>} [env]  the apps' environment (`[nats]` credentials for the probe)
 * @property {(line: string) => void} [log]
 */

/**
 * What does not answer and points at this machine is started from installed binaries; `stop()` stops only what this
 * started.
 * @param {InfrastructureOptions} options @returns {Promise<{ started: string[], stop: () => Promise<void> }>}
 */
export async function ensureInfrastructure(options) {
  const dataDir = path.resolve(options.dataDir ?? path.join(REPO_ROOT, '.cairn'));
  const log = options.log ?? (() => undefined);
  /** @type {{ name: string, stop: () => Promise<void> }[]} */
  const started = [];
  const stopAll = async () => {
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
  };
  try {
    const pgStop = await ensurePostgres(options.databaseUrl, dataDir, log);
    if (pgStop) started.push({ name: 'postgres', stop: pgStop });
    const natsStop = await ensureNats(options.natsUrl, dataDir, log, options.env ?? process.env);
    if (natsStop) started.push({ name: 'nats', stop: natsStop });
    const redisStop = await ensureRedis(options.redisUrl, dataDir, log);
    if (redisStop) started.push({ name: 'redis', stop: redisStop });
  } catch (err) {
    await stopAll();
    throw err;
  }
  return { started: started.map((s) => s.name), stop: stopAll };
}

/** @param {string} host */
function isLocal(host) {
  return ['127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0', ''].includes(host);
}

/** @param {string} host @param {number} port @param {number} [timeoutMs] @returns {Promise<boolean>} */
export function tcpReachable(host, port, timeoutMs = 1_500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: host.replace(/^\[|\]$/g, ''), port });
    const done = (/** @type {boolean} */ ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** @param {() => Promise<boolean>} probe @param {number} timeoutMs */
async function waitFor(probe, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await sleep(200);
  }
  return false;
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
 * The one place the scripts look for programs: PATH, the sbin folders, then `extraDirs`.
 * @param {string} name @param {string[]} [extraDirs] @returns {string | null}
 */
export function findBinary(name, extraDirs = []) {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin', ...extraDirs];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** @param {string} file */
function openLog(file) {
  mkdirSync(path.dirname(file), { recursive: true });
  return openSync(file, 'a');
}

/**
 * Its own process group: Ctrl-C reaches only `npm start`, which stops the servers last; it survives its parent's
 * crash.
 * @param {string} cmd @param {string[]} args @param {string} logFile
 */
function spawnServer(cmd, args, logFile) {
  const fd = openLog(logFile);
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  child.unref();
  return child;
}

/** @param {import('node:child_process').ChildProcess} child @param {number} [timeoutMs] */
async function terminate(child, timeoutMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.ref(); // servers are unref'd: without this, nothing would keep Node alive while we wait for the exit
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  if ((await Promise.race([gone, sleep(timeoutMs, 'timeout', { ref: false })])) === 'timeout') {
    child.kill('SIGKILL');
    await gone;
  }
}

/** @param {string} url @returns {Promise<'ok' | 'unreachable' | string>} 'ok', 'unreachable', or the server's error message */
async function probePostgres(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return 'ok';
  } catch (err) {
    const e = /** @type {any} */ (err);
    if (e?.code === '3D000') return 'ok'; // the database does not exist yet: migrations create it
    if (['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'ENOENT'].includes(e?.code)) return 'unreachable';
    if (/timeout|terminated unexpectedly|ECONNRESET/i.test(String(e?.message))) return 'unreachable';
    return String(e?.message ?? e);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The installed PostgreSQL server's initdb and pg_ctl (newest Debian version first). @returns {{ initdb: string, pgCtl: string } | null} */
export function findPostgresBinaries() {
  const base = '/usr/lib/postgresql';
  /** @type {string[]} */
  let versions = [];
  try {
    versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  } catch {
    // not a Debian layout
  }
  for (const dir of [...versions.map((v) => path.join(base, v, 'bin')), ...(process.env.PATH ?? '').split(':')]) {
    if (!dir) continue;
    const initdb = path.join(dir, 'initdb');
    const pgCtl = path.join(dir, 'pg_ctl');
    if (existsSync(initdb) && existsSync(pgCtl)) return { initdb, pgCtl };
  }
  return null;
}

/**
 * Also used by the chaos suite to run (and restart) a server of its own.
 * @param {string} databaseUrl @param {string} dataDir @param {(line: string) => void} log
 * @returns {Promise<(() => Promise<void>) | null>} stops what was started (null: nothing was)
 */
export async function ensurePostgres(databaseUrl, dataDir, log) {
  let u;
  try {
    u = new URL(databaseUrl);
  } catch {
    throw new SuiteError(`DATABASE_URL is not a valid URL: ${redact(databaseUrl)}`);
  }
  const state = await probePostgres(databaseUrl);
  if (state === 'ok') return null;
  const where = `${u.hostname || 'localhost'}:${u.port || 5432}`;
  if (state !== 'unreachable') {
    throw new SuiteError(`PostgreSQL at ${where} refused ${redact(databaseUrl)}: ${state} — fix DATABASE_URL`);
  }
  if (!isLocal(u.hostname)) {
    throw new SuiteError(`PostgreSQL is not reachable at ${where}: start it, or set DATABASE_URL to a reachable server`);
  }
  const bins = findPostgresBinaries();
  if (!bins) {
    throw new SuiteError(
      `PostgreSQL is not reachable at ${where} and no server binaries are installed: ` +
        'run `apt-get install postgresql` (or start a PostgreSQL server yourself) or set DATABASE_URL',
    );
  }
  const port = u.port || '5432';
  const user = decodeURIComponent(u.username || 'postgres');
  const pgData = path.join(dataDir, 'postgres');
  const logFile = path.join(dataDir, 'logs', 'postgres.log');
  mkdirSync(path.dirname(logFile), { recursive: true });
  // PostgreSQL refuses to run as root: as root, run it as the `postgres` system user.
  const asRoot = process.getuid?.() === 0;
  /** @param {string} cmd @param {string[]} args */
  const run = (cmd, args) => {
    const full = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
    return spawnSync(/** @type {string} */ (full[0]), /** @type {string[]} */ (full[1]), { encoding: 'utf8' });
  };
  if (asRoot) {
    if (spawnSync('id', ['-u', 'postgres']).status !== 0 || !findBinary('runuser')) {
      throw new SuiteError(
        `PostgreSQL is not reachable at ${where}, and it cannot be started as root without a "postgres" system ` +
          'user: start it yourself (`pg_ctlcluster --skip-systemctl-redirect <version> main start`) or run as a normal user',
      );
    }
    mkdirSync(pgData, { recursive: true });
    spawnSync('chown', ['-R', 'postgres:', pgData, path.dirname(logFile)]);
  }
  if (!existsSync(path.join(pgData, 'PG_VERSION'))) {
    log(`postgres: initialising ${pgData}`);
    const r = run(bins.initdb, ['-D', pgData, '-U', user, '--auth=trust', '--encoding=UTF8', '--no-locale']);
    if (r.status !== 0) throw new SuiteError(`initdb failed:\n${r.stderr || r.stdout}`);
  }
  const listen = u.hostname === 'localhost' ? 'localhost' : '127.0.0.1';
  log(`postgres: starting on ${listen}:${port} (data in ${pgData}, log ${logFile})`);
  // The e2e tier runs suites side by side (each app with its own pool): more than PostgreSQL's default 100 connections.
  const opts = `-p ${port} -c listen_addresses=${listen} -k ${pgData} -c max_connections=400`;
  const r = run(bins.pgCtl, ['-D', pgData, '-l', logFile, '-o', opts, '-w', '-t', '60', 'start']);
  if (r.status !== 0) throw new SuiteError(`pg_ctl start failed (see ${logFile}):\n${r.stderr || r.stdout}`);
  if (!(await waitFor(async () => (await probePostgres(databaseUrl)) === 'ok', 30_000))) {
    throw new SuiteError(`PostgreSQL started but ${redact(databaseUrl)} does not answer (see ${logFile})`);
  }
  return async () => {
    log('postgres: stopping');
    run(bins.pgCtl, ['-D', pgData, '-m', 'fast', '-w', 'stop']);
  };
}

/**
 * Starts nats-server with JetStream at `natsUrl` (store `<dataDir>/nats`) unless one answers there already.
 * @param {string} natsUrl @param {string} dataDir @param {(line: string) => void} log
 * @param {Record<string, string | undefined>} env
 * @returns {Promise<(() => Promise<void>) | null>} stops what was started (null: nothing was)
 */
export async function ensureNats(natsUrl, dataDir, log, env) {
  const first = natsUrl.split(',')[0].trim();
  let u;
  try {
    u = new URL(first.includes('://') ? first : `nats://${first}`);
  } catch {
    throw new SuiteError(`NATS_URL is not a valid URL: ${redact(natsUrl)}`);
  }
  const host = u.hostname || '127.0.0.1';
  const port = Number(u.port || 4222);
  if (await tcpReachable(host, port)) {
    await assertJetStream(natsUrl, `${host}:${port}`, env);
    return null;
  }
  if (!isLocal(u.hostname)) {
    throw new SuiteError(`NATS is not reachable at ${host}:${port}: start it (with JetStream, -js) or set NATS_URL`);
  }
  const bin = findBinary('nats-server');
  if (!bin) {
    throw new SuiteError(
      `NATS is not reachable at ${host}:${port} and no nats-server is installed: ` +
        'run `apt-get install nats-server` (or start one with `nats-server -js`) or set NATS_URL',
    );
  }
  const storeDir = path.join(dataDir, 'nats');
  const logFile = path.join(dataDir, 'logs', 'nats.log');
  mkdirSync(storeDir, { recursive: true });
  log(`nats: starting on ${host}:${port} with JetStream (store ${storeDir}, log ${logFile})`);
  const child = spawnServer(bin, ['-a', host, '-p', String(port), '-js', '-sd', storeDir], logFile);
  if (!(await waitFor(() => tcpReachable(host, port, 500), 15_000))) {
    await terminate(child);
    throw new SuiteError(`nats-server did not start on ${host}:${port} (see ${logFile})`);
  }
  return async () => {
    log('nats: stopping');
    await terminate(child);
  };
}

/** @param {string} natsUrl @param {string} where @param {Record<string, string | undefined>} env */
async function assertJetStream(natsUrl, where, env) {
  const { connect } = await import('@nats-io/transport-node');
  const { jetstreamManager } = await import('@nats-io/jetstream');
  let nc;
  try {
    nc = await connect({ ...(await probeNatsOptions(natsUrl, env)), timeout: 3_000, name: 'cairn-infra-probe' });
  } catch (err) {
    throw new SuiteError(`NATS at ${where} accepts TCP but not NATS connections: ${/** @type {Error} */ (err).message}`);
  }
  try {
    const jsm = await jetstreamManager(nc, { timeout: 3_000 });
    await jsm.getAccountInfo();
  } catch (err) {
    throw new SuiteError(
      `NATS at ${where} has no JetStream (${/** @type {Error} */ (err).message}): restart it with \`-js\`` +
        ' (e.g. `nats-server -js -sd <dir>`) or point NATS_URL at one that has it',
    );
  } finally {
    await nc.close().catch(() => undefined);
  }
}

/** @param {string} host @param {number} port @returns {Promise<boolean>} true when `PING` answers `+PONG` */
function redisPing(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let data = '';
    const done = (/** @type {boolean} */ ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_500, () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      data += d.toString('latin1');
      // -NOAUTH: a password-protected server answers; it is reachable (ioredis will authenticate from the URL).
      if (data.includes('\r\n')) done(data.startsWith('+PONG') || data.startsWith('-NOAUTH'));
    });
    socket.once('error', () => done(false));
  });
}

/**
 * `persist`: an append-only file fsynced on every write, so a restart keeps the queues (the chaos suite restarts
 * Redis).
 * @param {string} redisUrl @param {string} dataDir @param {(line: string) => void} log
 * @param {{ persist?: boolean }} [options]
 * @returns {Promise<(() => Promise<void>) | null>} stops what was started (null: nothing was)
 */
export async function ensureRedis(redisUrl, dataDir, log, options = {}) {
  let u;
  try {
    u = new URL(redisUrl);
  } catch {
    throw new SuiteError(`REDIS_URL is not a valid URL: ${redact(redisUrl)}`);
  }
  const host = u.hostname || '127.0.0.1';
  const port = Number(u.port || 6379);
  if (u.protocol === 'rediss:') {
    if (await tcpReachable(host, port)) return null;
    throw new SuiteError(`Redis is not reachable at ${host}:${port}: start it or set REDIS_URL`);
  }
  if (await redisPing(host, port)) return null;
  if (await tcpReachable(host, port)) {
    throw new SuiteError(`something listens on ${host}:${port} but does not answer Redis PING: check REDIS_URL`);
  }
  if (!isLocal(u.hostname)) throw new SuiteError(`Redis is not reachable at ${host}:${port}: start it or set REDIS_URL`);
  const bin = findBinary('redis-server');
  if (!bin) {
    throw new SuiteError(
      `Redis is not reachable at ${host}:${port} and no redis-server is installed: ` +
        'run `apt-get install redis-server` (or start a Redis 7 yourself) or set REDIS_URL',
    );
  }
  const dir = path.join(dataDir, 'redis');
  const logFile = path.join(dataDir, 'logs', 'redis.log');
  mkdirSync(dir, { recursive: true });
  log(`redis: starting on ${host}:${port} (log ${logFile})`);
  const bind = host === 'localhost' ? '127.0.0.1' : host;
  const child = spawnServer(
    bin,
    [
      '--bind', bind, '--port', String(port), '--save', '', '--dir', dir,
      ...(options.persist ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
    ],
    logFile,
  );
  if (!(await waitFor(() => redisPing(host, port), 15_000))) {
    await terminate(child);
    throw new SuiteError(`redis-server did not start on ${host}:${port} (see ${logFile})`);
  }
  return async () => {
    log('redis: stopping');
    await terminate(child);
  };
}

/** Creates the database if missing. @param {string} databaseUrl @param {(line: string) => void} [log] */
export async function deployMigrations(databaseUrl, log) {
  const { deploy } = await import('../tools/migrate/index.mjs');
  return deploy({ databaseUrl, log });
}

/** The kernel picks it. @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
