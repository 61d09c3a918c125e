// The one home of "what the tests need": missing Debian packages installed (or named), servers started as `npm start` does.
//   node scripts/prerequisites.mjs            tools and servers
//   node scripts/prerequisites.mjs --clients  also every real client, built into ~/.cache/cairn-clients (CI)
//   node scripts/prerequisites.mjs --check    only say what is missing
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { DEFAULTS, REPO_ROOT, SuiteError, ensureInfrastructure, findBinary, findPostgresBinaries } from './suite.mjs';

const args = new Set(process.argv.slice(2));
const unknown = [...args].filter((a) => !['--clients', '--check'].includes(a));
if (unknown.length) {
  process.stderr.write(`usage: node scripts/prerequisites.mjs [--clients] [--check] (unknown: ${unknown.join(' ')})\n`);
  process.exit(2);
}
const CHECK_ONLY = args.has('--check');
const WITH_CLIENTS = args.has('--clients') || process.env.CI === 'true';
const NODE_MAJOR = 24;

/** @param {string} line */
const say = (line) => process.stdout.write(`prerequisites: ${line}\n`);

/** @param {string} message @returns {never} */
function stop(message) {
  process.stderr.write(`prerequisites: ${message}\n`);
  process.exit(1);
}

/** @param {string} cmd @param {string[]} argv */
const succeeds = (cmd, argv) => spawnSync(cmd, argv, { stdio: 'ignore' }).status === 0;

/** `why` is for the reader. @type {{ what: string, pkg: string, present: () => boolean, why: string }[]} */
const TOOLS = [
  { what: 'PostgreSQL server', pkg: 'postgresql', present: () => findPostgresBinaries() !== null, why: 'every integration and e2e test' },
  { what: 'nats-server', pkg: 'nats-server', present: () => !!findBinary('nats-server'), why: 'the bus; integration tests start private servers' },
  { what: 'redis-server', pkg: 'redis-server', present: () => !!findBinary('redis-server'), why: 'queues' },
  { what: 'git', pkg: 'git', present: () => !!findBinary('git'), why: 'repositories' },
  { what: 'ssh and ssh-keygen', pkg: 'openssh-client', present: () => !!findBinary('ssh') && !!findBinary('ssh-keygen'), why: 'git over SSH, key tests' },
  { what: 'gpg', pkg: 'gnupg', present: () => !!findBinary('gpg'), why: 'commit signing' },
  { what: 'curl', pkg: 'curl', present: () => !!findBinary('curl'), why: 'the registry tests drive the registries with the real curl' },
  { what: 'skopeo', pkg: 'skopeo', present: () => !!findBinary('skopeo'), why: 'the container registry tests push and pull with the real OCI client' },
  { what: 'chromium', pkg: 'chromium', present: () => !!findBinary('chromium'), why: 'the web UI tests (playwright-core drives Debian\'s Chromium; no browser download)' },
  {
    what: 'docker-compose',
    pkg: 'docker-compose',
    present: () => !!findBinary('docker-compose') || succeeds('docker', ['compose', 'version']),
    why: 'docker-compose.yml is rendered and checked by compose itself (no Docker daemon needed)',
  },
];

/** Null when neither works. */
const aptPrefix = (() => {
  if (!findBinary('apt-get')) return null;
  if (process.getuid?.() === 0) return [];
  return findBinary('sudo') && succeeds('sudo', ['-n', 'true']) ? ['sudo', '-n'] : null;
})();
const canApt = () => aptPrefix !== null;

/** @param {string[]} argv @param {NodeJS.ProcessEnv} env */
function asRoot(argv, env) {
  const full = [...(aptPrefix ?? []), ...(aptPrefix?.length ? ['env', 'DEBIAN_FRONTEND=noninteractive'] : []), ...argv];
  return spawnSync(/** @type {string} */ (full[0]), full.slice(1), { stdio: 'inherit', env });
}

/** @param {string[]} pkgs */
function aptInstall(pkgs) {
  say(`installing with apt-get: ${pkgs.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = asRoot(['apt-get', 'update', '-q'], env);
  if (update.status !== 0) stop(`apt-get update failed: install ${pkgs.join(' ')} yourself`);
  const install = asRoot(['apt-get', 'install', '-y', '-q', '--no-install-recommends', ...pkgs], env);
  if (install.status !== 0) stop(`apt-get install failed: install ${pkgs.join(' ')} yourself`);
}

const major = Number(process.versions.node.split('.')[0]);
if (major < NODE_MAJOR) {
  stop(`Node.js ${NODE_MAJOR} or newer is needed (this is ${process.version}): install the current LTS (package.json engines)`);
}

let missing = TOOLS.filter((t) => !t.present());
if (missing.length && !CHECK_ONLY && canApt()) {
  aptInstall(missing.map((t) => t.pkg));
  missing = TOOLS.filter((t) => !t.present());
}
if (missing.length) {
  const how = canApt() || CHECK_ONLY ? '' : ' (as root, or with sudo)';
  stop(`missing ${missing.map((t) => t.what).join(', ')}: apt-get install ${missing.map((t) => t.pkg).join(' ')}${how}`);
}

const { CLIENTS, clientStatus, ensureClient } = await import('./clients.mjs');
const toolchainGaps = CLIENTS.map((c) => ({ client: c, gap: clientStatus(c).missing })).filter((x) => x.gap);
if (toolchainGaps.length) {
  const line = toolchainGaps.map((x) => `${x.client.name} needs ${x.gap}`).join('; ');
  if (WITH_CLIENTS) stop(`client toolchains missing: ${line}`);
  say(`client suites that will be skipped: ${line}`);
}

if (CHECK_ONLY) {
  say('everything is installed');
  process.exit(0);
}

try {
  const testDatabaseUrl = process.env.CAIRN_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const infra = await ensureInfrastructure({
    databaseUrl: testDatabaseUrl,
    natsUrl: process.env.NATS_URL ?? DEFAULTS.natsUrl,
    redisUrl: process.env.REDIS_URL ?? DEFAULTS.redisUrl,
    dataDir: path.join(REPO_ROOT, '.cairn'),
    log: say,
  });
  // Left running on purpose: the next run, `npm start` and the tests find them answering.
  say(infra.started.length ? `started ${infra.started.join(', ')} (data and logs in .cairn/)` : 'PostgreSQL, NATS and Redis answer');
} catch (err) {
  if (err instanceof SuiteError) stop(err.message);
  throw err;
}

if (WITH_CLIENTS) {
  for (const c of CLIENTS) {
    const t0 = Date.now();
    try {
      const r = await ensureClient(c.name, { log: say });
      say(`${c.name} ${c.version}: ${r.built ? `built in ${((Date.now() - t0) / 1000).toFixed(0)} s` : 'cached'} (${r.dir})`);
    } catch (err) {
      stop(`${c.name} ${c.version} could not be built or installed: ${/** @type {Error} */ (err).message}`);
    }
  }
}
process.exit(0);
