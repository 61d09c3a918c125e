// Clone benchmark: `git clone` of a ~50 MB repository through the gateway (smart HTTP → repo-service's internal
// endpoint → `git upload-pack --stateless-rpc`) against the floor of `git clone --no-local` from the same bare
// directory on disk (`file://`: a real upload-pack exchange with pack generation, no network, no Cairn).
// Prints medians and `ratio = gateway / disk`. No assertions.
//
//   npm run build && node bench/git-clone.bench.mjs
//
// Knobs: BENCH_MB (default 50), BENCH_RUNS (default 5), CAIRN_BENCH_KEEP=1 keeps the temporary folder.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { APPS } from '../scripts/suite.mjs';
import { benchGitEnv } from './git-bench-support.mjs';
import { basicAuth, benchRun, createSiteAdmin, postJson, scratchDatabase, startBenchSuite, startNatsServer } from './suite-bench-support.mjs';

const MB = Number(process.env.BENCH_MB ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const say = (line) => process.stdout.write(`${line}\n`);
const run = benchRun('cairn-bench-clone', { keep: Boolean(process.env.CAIRN_BENCH_KEEP) });
const { id, dataDir: root } = run;

/** The floor's git and the clients run git as the service does (the same environment rule). */
const gitEnv = benchGitEnv();

function git(args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { env: gitEnv, stdio: ['ignore', 'ignore', 'pipe'], ...options });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git ${args[0]} exited ${code}: ${stderr}`))));
  });
}

/**
 * A bare repository of ~`mb` MB of incompressible blobs over 10 commits (random bytes: the pack is as large as the
 * data), written with `git fast-import`.
 */
function generateRepository(dir, mb) {
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', dir], { env: gitEnv });
  const commits = 10;
  const fileSize = 1024 * 1024;
  const perCommit = Math.max(1, Math.round(mb / commits));
  const chunks = [];
  const t0 = 1_700_000_000;
  for (let i = 0; i < commits; i++) {
    chunks.push(Buffer.from(`commit refs/heads/main\nmark :${i + 1}\n`));
    chunks.push(Buffer.from(`author Bench <bench@example.com> ${t0 + i * 60} +0000\ncommitter Bench <bench@example.com> ${t0 + i * 60} +0000\n`));
    const msg = Buffer.from(`commit ${i}\n`);
    chunks.push(Buffer.from(`data ${msg.length}\n`), msg);
    if (i > 0) chunks.push(Buffer.from(`from :${i}\n`));
    for (let f = 0; f < perCommit; f++) {
      const data = randomBytes(fileSize);
      chunks.push(Buffer.from(`M 100644 inline data/${i}/${f}.bin\ndata ${data.length}\n`), data, Buffer.from('\n'));
    }
    chunks.push(Buffer.from('\n'));
  }
  execFileSync('git', [`--git-dir=${dir}`, 'fast-import', '--quiet'], { input: Buffer.concat(chunks), env: gitEnv, maxBuffer: 1 << 30 });
  // One pack, as a served repository has after gc (and the push below then reuses it as it is).
  execFileSync('git', [`--git-dir=${dir}`, 'repack', '-adq'], { env: gitEnv });
  const packDir = path.join(dir, 'objects', 'pack');
  const bytes = readdirSync(packDir).filter((f) => f.endsWith('.pack')).reduce((n, f) => n + statSync(path.join(packDir, f)).size, 0);
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Milliseconds of one call. */
async function time(fn) {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

function stats(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted.at(-1) };
}

/**
 * Times `ours` and `floor` alternately (one warm-up each first), so that both see the same machine: on a shared
 * machine the load changes from one second to the next.
 */
async function compare(label, ours, floor) {
  await ours();
  await floor();
  const a = [];
  const b = [];
  for (let i = 0; i < RUNS; i++) {
    a.push(await time(ours));
    b.push(await time(floor));
  }
  const fmt = (n) => n.toFixed(0).padStart(6);
  for (const [name, t] of [['gateway (HTTP)', stats(a)], ['disk (file://, floor)', stats(b)]]) {
    say(`${`${label}: ${name}`.padEnd(62)} median ${fmt(t.median)} ms   min ${fmt(t.min)} ms   max ${fmt(t.max)} ms`);
  }
  return stats(a).median / stats(b).median;
}

async function main() {
  say(
    `git clone benchmark: ~${MB} MB of incompressible data, ${RUNS} alternating runs each (+1 warm-up), ` +
      `${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
  );
  const source = path.join(root, 'source.git');
  let t = Date.now();
  const packSize = generateRepository(source, MB);
  say(`generated ${source} (pack ${packSize}) in ${((Date.now() - t) / 1000).toFixed(1)} s`);

  const natsUrl = await startNatsServer(run);
  const databaseUrl = await scratchDatabase(run, `cairn_bench_${id}`);
  const env = {
    RUN_MODE: 'test',
    CAIRN__SERVER__SSH_LISTEN_HOST: '127.0.0.1',
    CAIRN__SECURITY__INTERNAL_TOKEN: randomBytes(24).toString('hex'),
    CAIRN__SECURITY__SECRET_KEY: randomBytes(24).toString('hex'),
    CAIRN__SECURITY__PASSWORD_HASH_ALGO: 'scrypt$1024$8$1',
  };
  t = Date.now();
  const suite = await startBenchSuite(run, {
    databaseUrl,
    natsUrl,
    queuePrefix: `cairn-bench-${id}`,
    // Everything the gateway's readiness needs; the merge-check worker plays no part in a clone.
    apps: APPS.map((a) => a.name).filter((n) => n !== 'merge-check-worker'),
    env,
  });
  say(`suite ready in ${((Date.now() - t) / 1000).toFixed(1)} s at ${suite.baseUrl}`);

  const user = 'bench';
  const password = `Pw-${randomBytes(8).toString('hex')}`;
  await createSiteAdmin(suite, user, password);
  await postJson(`${suite.baseUrl}/api/v1/user/repos`, basicAuth(user, password), { name: 'big', private: false });

  const pushUrl = new URL(`${suite.baseUrl}/${user}/big.git`);
  pushUrl.username = user;
  pushUrl.password = password;
  t = Date.now();
  await git(['push', '-q', pushUrl.toString(), 'main'], { cwd: source });
  say(`pushed through the gateway in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  const bare = path.join(root, 'repositories', user, 'big.git');

  const clones = path.join(root, 'clones');
  mkdirSync(clones);
  let n = 0;
  const fresh = () => path.join(clones, `c${n++}`);
  const anonymousUrl = `${suite.baseUrl}/${user}/big.git`;
  const results = [];
  for (const checkout of [false, true]) {
    const flags = checkout ? [] : ['--no-checkout'];
    const what = checkout ? 'clone with checkout' : 'clone --no-checkout';
    const ratio = await compare(
      what,
      async () => {
        const dir = fresh();
        await git(['clone', '-q', ...flags, anonymousUrl, dir]);
        rmSync(dir, { recursive: true, force: true });
      },
      async () => {
        const dir = fresh();
        await git(['clone', '-q', ...flags, '--no-local', `file://${bare}`, dir]);
        rmSync(dir, { recursive: true, force: true });
      },
    );
    results.push([what, ratio]);
  }
  say(`load average now: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const [what, ratio] of results) say(`ratio = gateway / disk (${what}) = ${ratio.toFixed(2)}`);
}

try {
  await main();
} catch (err) {
  process.exitCode = 1;
  say(`benchmark failed: ${err?.stack ?? err}`);
} finally {
  await run.cleanup();
  if (process.env.CAIRN_BENCH_KEEP) say(`kept ${root}`);
}
