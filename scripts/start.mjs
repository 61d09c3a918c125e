// `npm start`: servers, migrations, every app as its own process, crash restarts with a capped back-off, bounded
// drain on Ctrl-C.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULTS, REPO_ROOT, SuiteError, deployMigrations, ensureInfrastructure, redact, startSuite } from './suite.mjs';
import { localSecrets } from './lib/local-secrets.mjs';

const say = (/** @type {string} */ line) => process.stdout.write(`cairn: ${line}\n`);

/** See onSignal. */
const SAME_STOP_MS = 1_000;
const STOP_GRACE_MS = 20_000;
/** A minute up resets the back-off. */
const RESTART = { baseDelayMs: 1_000, maxDelayMs: 30_000, stableMs: 60_000 };

function stallSeconds() {
  const raw = process.env.CAIRN_START_STALL_SECONDS ?? '90';
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new SuiteError(`CAIRN_START_STALL_SECONDS must be a positive number of seconds (got "${raw}")`);
  return n;
}

const CHATTER = /"context":"(InstanceLoader|RouterExplorer|RoutesResolver|NestFactory|NestMicroservice|NestApplication)"/;
const showLine = (/** @type {string} */ line) => Boolean(process.env.CAIRN_VERBOSE) || !CHATTER.test(line);

/** The same sources as the apps; secrets the operator did not set come from {@link localSecrets}. */
async function readSettings() {
  /** @type {typeof import('@cairn/platform')} */
  let platform;
  try {
    platform = await import('@cairn/platform');
  } catch (err) {
    if (/** @type {any} */ (err)?.code === 'ERR_MODULE_NOT_FOUND') {
      throw new SuiteError('the libraries are not built: run `npm run build` (npm start runs it first)');
    }
    throw err;
  }
  try {
    const common = platform.loadSettings(platform.commonSettings);
    const { secretKey } = platform.loadSettings({ secretKey: platform.secretKeySetting });
    /** @type {Set<string>} */
    const configuredSecrets = new Set();
    if (common.internalToken !== platform.commonSettings.internalToken.default) configuredSecrets.add('internalToken');
    if (secretKey !== platform.DEV_SECRET_KEY) configuredSecrets.add('secretKey');
    return { ...common, configuredSecrets };
  } catch (err) {
    if (err instanceof platform.ConfigError) throw new SuiteError(err.message);
    throw err;
  }
}

/**
 * One folder per namespace, so suites of different namespaces never write the same files; a second `npm start` of one
 * installation is refused.
 * @param {string} namespace
 */
function claimInstallationDir(namespace) {
  const label = namespace || 'default';
  const dir = path.join(REPO_ROOT, '.cairn', label);
  const pidFile = path.join(dir, 'start.pid');
  mkdirSync(dir, { recursive: true });
  let other = NaN;
  try {
    other = Number(readFileSync(pidFile, 'utf8').trim());
  } catch {
    // nobody claimed it
  }
  if (Number.isInteger(other) && other > 0 && other !== process.pid && isAlive(other)) {
    throw new SuiteError(
      `another npm start (pid ${other}) runs the ${label === 'default' ? 'default installation' : `installation "${label}"`} ` +
        'from this folder: stop it, or give this one its own namespace and ports ' +
        `(CAIRN__NATS__NAMESPACE, CAIRN__SERVER__HTTP_PORT, …); if that process is not Cairn, delete ${path.relative(REPO_ROOT, pidFile)}`,
    );
  }
  writeFileSync(pidFile, `${process.pid}\n`);
  return { dir, release: () => rmSync(pidFile, { force: true }) };
}

/** @param {number} pid */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return /** @type {any} */ (err)?.code === 'EPERM';
  }
}

async function main() {
  /** @type {Awaited<ReturnType<typeof ensureInfrastructure>> | null} */
  let infra = null;
  /** @type {Awaited<ReturnType<typeof startSuite>> | null} */
  let suite = null;
  /** @type {ReturnType<typeof claimInstallationDir> | null} */
  let installation = null;
  let firstSignalAt = 0;
  let exitCode = 0;
  const abort = new AbortController();
  /** @type {() => void} */
  let wake = () => undefined;
  const stopRequested = new Promise((/** @type {(v?: unknown) => void} */ resolve) => (wake = resolve));

  const onSignal = (/** @type {NodeJS.Signals} */ signal) => {
    if (firstSignalAt === 0) {
      firstSignalAt = Date.now();
      say(`${signal}: stopping, the apps finish what they are doing (press Ctrl-C again to kill at once)`);
      abort.abort();
      wake();
    } else if (Date.now() - firstSignalAt >= SAME_STOP_MS) {
      say('killing the remaining processes');
      void suite?.stop({ timeoutMs: 0 });
    }
    // Else the same stop delivered twice (the terminal and npm both forward Ctrl-C), not a request to kill at once.
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  // `kill <npm pid>` signals only npm's `sh -c` child, which dies without passing it on: being re-parented means stop
  // too.
  const parent = process.ppid;
  const watchParent = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(watchParent);
      onSignal(/** @type {NodeJS.Signals} */ ('SIGHUP'));
    }
  }, 500);
  watchParent.unref();

  try {
    const s = await readSettings();
    installation = claimInstallationDir(s.natsNamespace);
    const logDir = path.join(installation.dir, 'logs');
    const secrets = localSecrets(installation.dir, s.configuredSecrets);
    if (secrets.created.length) say(`generated ${secrets.created.join(' and ')} for this installation (kept in ${path.relative(REPO_ROOT, secrets.file)})`);
    say('checking PostgreSQL, NATS and Redis');
    infra = await ensureInfrastructure({
      databaseUrl: s.databaseUrl,
      natsUrl: s.natsUrl,
      redisUrl: s.redisUrl,
      dataDir: path.join(REPO_ROOT, '.cairn'),
      env: { ...process.env, ...secrets.env },
      log: say,
    });
    if (abort.signal.aborted) return;
    say(`applying migrations to ${redact(s.databaseUrl)}`);
    const { applied } = await deployMigrations(s.databaseUrl, (line) => say(`  ${line}`));
    say(applied.length ? `applied ${applied.length} migration(s)` : 'database schema is up to date');
    if (abort.signal.aborted) return;

    say(`starting the apps (logs also in ${path.relative(REPO_ROOT, logDir)}/)`);
    suite = await startSuite({
      databaseUrl: s.databaseUrl,
      natsUrl: s.natsUrl,
      redisUrl: s.redisUrl,
      httpPort: s.httpPort,
      sshPort: s.sshPort,
      rootUrl: s.rootUrl,
      repoRoot: s.repoRoot ?? DEFAULTS.repoRoot,
      repoInternalPort: s.repoInternalPort,
      repoInternalUrl: s.repoInternalUrl,
      runnersInternalPort: s.runnersInternalPort,
      runnersInternalUrl: s.runnersInternalUrl,
      packagesInternalPort: s.packagesInternalPort,
      packagesInternalUrl: s.packagesInternalUrl,
      queuePrefix: s.queuePrefix,
      natsNamespace: s.natsNamespace,
      env: secrets.env,
      output: 'prefix',
      outputFilter: showLine,
      logDir,
      signal: abort.signal,
      onWaiting: say,
      // How long an app still starting may make no progress (CPU or output); a loaded machine is waited for.
      readyTimeoutMs: stallSeconds() * 1000,
      restart: process.env.CAIRN_START_NO_RESTART ? null : RESTART,
      onRestart: (app, code, signal, delayMs) => {
        say(`${app} stopped unexpectedly (${signal ?? `exit code ${code}`}): restarting it in ${Math.round(delayMs / 1000)} s`);
      },
      onUnexpectedExit: (app, code, signal) => {
        say(`${app} stopped unexpectedly (${signal ?? `exit code ${code}`}): stopping the suite`);
        exitCode = 1;
        wake();
      },
    });

    const root = s.rootUrl;
    const host = new URL(root).hostname;
    process.stdout.write(
      [
        '',
        `Cairn is running at ${root}`,
        `  API:          ${root}api/v1/version`,
        `  Git (HTTP):   git clone ${root}<owner>/<repo>.git`,
        `  Git (SSH):    git clone ssh://git@${host}:${s.sshPort}/<owner>/<repo>.git`,
        'Create the first administrator with:',
        '  npm run cairn -- admin user create --username <name> --password <password> --email <email> --admin',
        'Press Ctrl-C to stop.',
        '',
      ].join('\n') + '\n',
    );
    await stopRequested;
  } catch (err) {
    if (err instanceof SuiteError && abort.signal.aborted) return;
    throw err;
  } finally {
    if (suite) {
      say('stopping the apps');
      const { killed } = await suite.stop({ timeoutMs: STOP_GRACE_MS });
      if (killed.length) say(`killed after the grace period: ${killed.join(', ')}`);
    }
    if (infra?.started.length) await infra.stop();
    installation?.release();
    say(exitCode === 0 ? 'stopped' : 'stopped after a failure');
    process.exitCode = exitCode;
  }
}

main().then(
  // Exit explicitly: a client library's stray timer must not keep `npm start` alive after everything stopped.
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    const e = /** @type {any} */ (err);
    const plain = e instanceof SuiteError || e?.name === 'MigrateError';
    process.stderr.write(`cairn: ${plain ? e.message : (e?.stack ?? e)}\n`);
    process.exit(1);
  },
);
