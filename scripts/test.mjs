// `npm test`: the steps in order, stopping at the first failure; ends with `N passed, M failed` from the Vitest JSON reports.
//   node scripts/test.mjs                 every step
//   node scripts/test.mjs unit e2e        only the named steps (`e2e` alone builds first)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './suite.mjs';
import { readProjects } from './lib/nx-projects.mjs';

const STEPS = ['prerequisites', 'lint', 'build', 'typecheck-tests', 'generated', 'migrations', 'unit', 'integration', 'e2e'];
const requested = process.argv.slice(2);
const unknown = requested.filter((s) => !STEPS.includes(s));
if (unknown.length) {
  process.stderr.write(`unknown step(s): ${unknown.join(', ')} (steps: ${STEPS.join(', ')})\n`);
  process.exit(2);
}
const selected = new Set(requested.length ? requested : STEPS);
if (selected.has('e2e') || selected.has('generated')) selected.add('build');
if (['migrations', 'unit', 'integration', 'e2e'].some((s) => selected.has(s))) selected.add('prerequisites');

const bin = (/** @type {string} */ name) => path.join(REPO_ROOT, 'node_modules', '.bin', name);
const reportDir = mkdtempSync(path.join(tmpdir(), 'cairn-test-'));
const totals = { passed: 0, failed: 0 };
const started = Date.now();
/** @type {{ step: string, seconds: number, ok: boolean }[]} */
const timings = [];
/** Failed tests, named in the summary: CI shows only the tail of the output, so the names must be there. */
/** @type {string[]} */
const failures = [];

/**
 * @param {string} cmd @param {string[]} args @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<number>} exit code (signals count as failure)
 */
function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', ...env },
    });
    child.once('error', (err) => {
      process.stderr.write(`cannot run ${cmd}: ${err.message}\n`);
      resolve(127);
    });
    child.once('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** @param {string} title */
function heading(title) {
  process.stdout.write(`\n==== ${title} ${'='.repeat(Math.max(0, 100 - title.length))}\n`);
}

/** Two at a time (two cores). @param {string} target @param {string[]} [extra] */
function nxRunMany(target, extra = []) {
  return run(bin('nx'), ['run-many', '-t', target, '--parallel=2', '--outputStyle=stream', ...extra]);
}

/**
 * Adds one Vitest JSON report to the totals and names its failures.
 * @param {string} label @param {string} report @returns {boolean} whether the report exists
 */
function countReport(label, report) {
  if (!existsSync(report)) return false;
  const r = JSON.parse(readFileSync(report, 'utf8'));
  totals.passed += r.numPassedTests ?? 0;
  totals.failed += r.numFailedTests ?? 0;
  // A file that fails before its tests run (import error, failing beforeAll) has no failed test of its own:
  // count it as one, so a broken file never reads as green.
  for (const file of r.testResults ?? []) {
    const rel = path.relative(REPO_ROOT, file.name ?? '');
    const own = (file.assertionResults ?? []).filter((/** @type {any} */ a) => a.status === 'failed');
    for (const a of own) failures.push(`${label}: ${rel} > ${a.fullName ?? a.title}\n      ${firstLine(a.failureMessages?.[0])}`);
    if (file.status === 'failed' && own.length === 0) {
      totals.failed += 1;
      failures.push(`${label}: ${rel} (the file failed outside its tests)\n      ${firstLine(file.message)}`);
    }
  }
  return true;
}

/**
 * Stale reports are removed first, so only this run's (or the cache's) count.
 * @param {string} target @param {'unit' | 'integration'} kind @param {string[]} [extra]
 */
async function nxVitest(target, kind, extra = []) {
  const reports = readProjects(REPO_ROOT).map((p) => ({ label: `${kind} ${p.name}`, file: path.join(REPO_ROOT, p.root, 'test-results', `${kind}.json`) }));
  for (const r of reports) rmSync(r.file, { force: true });
  const failedBefore = totals.failed;
  const code = await nxRunMany(target, extra);
  for (const r of reports) countReport(r.label, r.file);
  if (code !== 0 && totals.failed === failedBefore) totals.failed += 1;
  return code;
}

/** One Vitest project run directly (e2e), counted from its JSON report. @param {string} project */
async function vitest(project) {
  const report = path.join(reportDir, `${project}.json`);
  const code = await run(bin('vitest'), [
    'run',
    '--project', project,
    '--passWithNoTests',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  const failedBefore = totals.failed;
  if (!countReport(project, report) && code !== 0) totals.failed += 1;
  if (code !== 0 && totals.failed === failedBefore) totals.failed += 1;
  return code;
}

/** @param {unknown} text */
function firstLine(text) {
  const line = String(text ?? '').split('\n').find((l) => l.trim()) ?? '';
  return line.trim().slice(0, 300);
}

/** Always dropped. */
async function migrationCheck() {
  const { default: pg } = await import('pg');
  const base = new URL(process.env.CAIRN_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  const name = `cairn_check_${randomBytes(4).toString('hex')}`;
  const admin = new URL(base);
  admin.pathname = '/postgres';
  const scratch = new URL(base);
  scratch.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
    const cli = path.join(REPO_ROOT, 'tools/migrate/cli.mjs');
    let code = await run(process.execPath, [cli, 'deploy', '--database-url', scratch.toString()]);
    if (code === 0) code = await run(process.execPath, [cli, 'check', '--database-url', scratch.toString()]);
    return code;
  } finally {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
    await client.end();
  }
}

/** Outputs Nx restores keep their first build time, older than a fresh checkout's sources; the e2e stale-build guard compares those. */
function markBuilt() {
  const now = new Date();
  for (const p of readProjects(REPO_ROOT)) {
    const stamp = path.join(REPO_ROOT, p.root, 'dist', '.tsbuildinfo');
    if (existsSync(stamp)) utimesSync(stamp, now, now);
  }
}

/** @type {Record<string, [string, () => Promise<number>]>} */
const steps = {
  prerequisites: ['Prerequisites (scripts/prerequisites.mjs: tools, servers, client toolchains)', () =>
    run(process.execPath, [path.join(REPO_ROOT, 'scripts/prerequisites.mjs')])],
  lint: ['Lint (nx run-many -t lint: eslint per project, cached)', () => nxRunMany('lint')],
  build: ['Type check and build (nx run-many -t build: Prisma clients, then tsc -b per project, cached)', async () => {
    const code = await nxRunMany('build');
    if (code === 0) markBuilt();
    return code;
  }],
  // Vitest strips types and the build leaves the tests out: here a test calling code with the wrong shape fails.
  'typecheck-tests': ['Type check of the test code (nx run cairn:typecheck-tests: tsc -p tsconfig.spec.json, cached)', () =>
    run(bin('nx'), ['run', 'cairn:typecheck-tests', '--outputStyle=stream'])],
  generated: ['Generated files are current (OpenAPI description, subject catalogue, NATS accounts, settings table, Nx graph, runner protocol code)', async () => {
    let code = await run(process.execPath, [path.join(REPO_ROOT, 'apps/gateway/dist/openapi/write-openapi.js'), '--check']);
    if (code === 0) code = await run(process.execPath, [path.join(REPO_ROOT, 'scripts/subject-catalogue.mjs'), '--check']);
    if (code === 0) code = await run(process.execPath, [path.join(REPO_ROOT, 'scripts/nats-accounts.mjs'), '--check']);
    if (code === 0) code = await run(process.execPath, [path.join(REPO_ROOT, 'scripts/settings-table.mjs'), '--check']);
    if (code === 0) code = await run(process.execPath, [path.join(REPO_ROOT, 'scripts/nx-graph.mjs'), '--check']);
    if (code === 0) code = await run(process.execPath, [path.join(REPO_ROOT, 'scripts/runner-protocol-codegen.mjs'), '--check']);
    return code;
  }],
  migrations: ['Migrations cover every schema (tools/migrate check on a scratch database)', migrationCheck],
  unit: ['Unit tests (nx run-many -t test: vitest --project unit per project, cached)', () => nxVitest('test', 'unit')],
  integration: [
    'Integration tests (nx run-many -t integration: vitest --project integration per project, real Postgres, NATS, Redis)',
    // One Vitest worker per project: as much in flight as one run with maxWorkers 2, without one project's long tail
    // idling a core.
    () => nxVitest('integration', 'integration', ['--maxWorkers=1']),
  ],
  e2e: ['End-to-end tests (vitest --project e2e: the whole suite over HTTP)', () => vitest('e2e')],
};

let exitCode = 0;
for (const step of STEPS) {
  if (!selected.has(step)) continue;
  const [title, fn] = steps[step];
  heading(title);
  const t0 = Date.now();
  let code;
  try {
    code = await fn();
  } catch (err) {
    process.stderr.write(`${/** @type {Error} */ (err).stack ?? err}\n`);
    code = 1;
  }
  const seconds = (Date.now() - t0) / 1000;
  timings.push({ step, seconds, ok: code === 0 });
  if (code !== 0) {
    process.stdout.write(`\n${step}: FAILED (exit code ${code}) after ${seconds.toFixed(1)} s — stopping here.\n`);
    exitCode = 1;
    break;
  }
  process.stdout.write(`\n${step}: ok (${seconds.toFixed(1)} s)\n`);
}

rmSync(reportDir, { recursive: true, force: true });
heading('Summary');
for (const t of timings) process.stdout.write(`  ${t.ok ? 'ok    ' : 'FAILED'} ${t.step.padEnd(16)} ${t.seconds.toFixed(1)} s\n`);
process.stdout.write(`  total ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
if (failures.length) {
  process.stdout.write('\nFailed:\n');
  for (const f of failures.slice(0, 20)) process.stdout.write(`  ${f}\n`);
  if (failures.length > 20) process.stdout.write(`  … and ${failures.length - 20} more\n`);
}
process.stdout.write(`${totals.passed} passed, ${totals.failed} failed\n`);
process.exit(exitCode);
