// 1,000 registered runners long-polling `FetchTask` (Gitea's runner protocol, Connect binary over HTTP/1.1 keep-alive)
// through the gateway to one runners-service instance, for a bounded time on loopback. Prints heartbeats handled per
// second, the CPU runners-service (and the gateway) spent per heartbeat, and the liveness writes the database took
// (`n_tup_upd` of runners.runners) against the heartbeats — throttled, so far fewer than one write per poll.
// Phases, each on a freshly started suite over the same database and runners: the default long-poll wait
// (`[actions] FETCH_TASK_WAIT` 2 s: what a fleet costs at rest), no wait (the instance saturated), and the default wait
// with a liveness write on every poll (`RUNNER_LIVENESS_UPDATE_INTERVAL` 0 s: what the throttle saves). Nothing
// asserts on time.
//
//   npm run build && node bench/runner-heartbeats.bench.mjs [--runners 1000] [--duration 15] [--warmup 6] [--phases 2s,0s,2s/0s] [--direct]
import { randomBytes, createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import pg from 'pg';
import { REPO_ROOT } from '../scripts/suite.mjs';
import { benchRun, say, scratchDatabase, startBenchSuite, startNatsServer } from './suite-bench-support.mjs';

const { RunnerService } = await import(path.join(REPO_ROOT, 'apps/runners-service/dist/protocol/gen/runner/v1/services_pb.js'));

const { values: opts } = parseArgs({
  options: {
    runners: { type: 'string', default: process.env.BENCH_RUNNERS ?? '1000' },
    duration: { type: 'string', default: process.env.BENCH_DURATION ?? '15' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? '6' },
    // Phases: `<FETCH_TASK_WAIT>[/<RUNNER_LIVENESS_UPDATE_INTERVAL>]`; the last default phase writes on every poll.
    phases: { type: 'string', default: process.env.BENCH_PHASES ?? '2s,0s,2s/0s' },
    // Poll runners-service's internal port directly instead of through the gateway (to see the gateway's share).
    direct: { type: 'boolean', default: false },
  },
});
const RUNNERS = Number(opts.runners);
const DURATION_MS = Number(opts.duration) * 1000;
const WARMUP_MS = Number(opts.warmup) * 1000;
const TICKS = 100; // USER_HZ on Linux: /proc/<pid>/stat counts CPU time in 1/100 s

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

async function livenessWrites(db) {
  // Statistics reach the view when the writing backends flush them (at most once a second while idle).
  await new Promise((r) => setTimeout(r, 1500));
  await db.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await db.query(`SELECT n_tup_upd FROM pg_stat_user_tables WHERE schemaname = 'runners' AND relname = 'runners'`);
  return Number(rows[0]?.n_tup_upd ?? 0);
}

async function main() {
  const run = benchRun('cairn-bench-runners');
  try {
    const natsUrl = await startNatsServer(run);
    const databaseUrl = await scratchDatabase(run, `cairn_bench_runners_${run.id}`);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    run.defer(() => db.end());
    const registration = randomBytes(20).toString('hex');
    await db.query(
      `INSERT INTO runners.runner_registration_tokens (owner_id, repo_id, token_hash, token_sealed, is_active, updated_at)
       VALUES (0, 0, $1, 'bench', true, now())`,
      [createHash('sha256').update(registration).digest('hex')],
    );

    const secrets = { secretKey: randomBytes(24).toString('hex'), internalToken: randomBytes(24).toString('hex') };
    let runners = null;
    const results = [];
    for (const phase of opts.phases.split(',')) {
      const [wait, interval] = phase.split('/');
      say(`phase FETCH_TASK_WAIT=${wait}${interval ? ` RUNNER_LIVENESS_UPDATE_INTERVAL=${interval}` : ''}: starting the suite`);
      const suite = await startBenchSuite(run, {
        databaseUrl,
        natsUrl,
        queuePrefix: `cairn-bench-${run.id}`,
        env: {
          RUN_MODE: 'prod',
          CAIRN__ACTIONS__FETCH_TASK_WAIT: wait,
          ...(interval ? { CAIRN__ACTIONS__RUNNER_LIVENESS_UPDATE_INTERVAL: interval } : {}),
          CAIRN__SECURITY__SECRET_KEY: secrets.secretKey,
          CAIRN__SECURITY__INTERNAL_TOKEN: secrets.internalToken,
        },
      });
      const agent = new http.Agent({ keepAlive: true, noDelay: true, maxSockets: RUNNERS + 16 });
      const transport = createConnectTransport({
        baseUrl: `${opts.direct ? suite.env.CAIRN__CAIRN__RUNNERS_INTERNAL_URL : suite.baseUrl}/api/actions`,
        httpVersion: '1.1',
        useBinaryFormat: true,
        nodeOptions: { agent },
      });
      const internal = (next) => (req) => {
        req.header.set('x-cairn-internal-token', secrets.internalToken);
        return next(req);
      };
      const client = createClient(RunnerService, opts.direct ? createConnectTransport({
        baseUrl: `${suite.env.CAIRN__CAIRN__RUNNERS_INTERNAL_URL}/api/actions`,
        httpVersion: '1.1',
        useBinaryFormat: true,
        nodeOptions: { agent },
        interceptors: [internal],
      }) : transport);
      if (!runners) {
        say(`registering ${RUNNERS} runners over the protocol`);
        runners = [];
        for (let i = 0; i < RUNNERS; i += 50) {
          const batch = await Promise.all(
            Array.from({ length: Math.min(50, RUNNERS - i) }, (_, j) =>
              client.register({ name: `bench-${i + j}`, token: registration, version: 'bench', labels: ['linux'] })),
          );
          runners.push(...batch.map((r) => ({ 'x-runner-uuid': r.runner.uuid, 'x-runner-token': r.runner.token })));
        }
      }
      const pid = (name) => suite.apps.find((a) => a.name === name)?.pid;
      const servicePid = pid('runners-service');
      const gatewayPid = pid('gateway');

      let counting = false;
      let stop = false;
      let handled = 0;
      let failed = 0;
      // Runners come up one after another over the warm-up (a thousand connections opened in the same millisecond
      // overflow the listen backlog and measure SYN retransmits instead).
      const poll = async (headers, i) => {
        await new Promise((r) => setTimeout(r, (i * WARMUP_MS) / (2 * RUNNERS)));
        while (!stop) {
          try {
            await client.fetchTask({ tasksVersion: 0n }, { headers, timeoutMs: 5000 });
            if (counting) handled++;
          } catch (err) {
            if (counting) failed++;
            if (failed === 1) say(`a poll failed: ${err.message}`);
          }
        }
      };
      say(`${RUNNERS} runners polling (warm-up ${WARMUP_MS / 1000} s)`);
      const pollers = runners.map(poll);
      await new Promise((r) => setTimeout(r, WARMUP_MS));
      const writesBefore = await livenessWrites(db);
      const cpu0 = { service: cpuSeconds(servicePid), gateway: cpuSeconds(gatewayPid), bench: process.cpuUsage() };
      const t0 = performance.now();
      counting = true;
      await new Promise((r) => setTimeout(r, DURATION_MS));
      counting = false;
      const seconds = (performance.now() - t0) / 1000;
      const cpu1 = { service: cpuSeconds(servicePid), gateway: cpuSeconds(gatewayPid), bench: process.cpuUsage(cpu0.bench) };
      stop = true;
      await Promise.all(pollers);
      const writes = (await livenessWrites(db)) - writesBefore;
      agent.destroy();
      await suite.stop();

      const row = {
        phase,
        heartbeatsPerSecond: Math.round(handled / seconds),
        failed,
        serviceCpuMsPerHeartbeat: ((cpu1.service - cpu0.service) * 1000) / handled,
        serviceCpuLoad: (cpu1.service - cpu0.service) / seconds,
        gatewayCpuMsPerHeartbeat: ((cpu1.gateway - cpu0.gateway) * 1000) / handled,
        benchCpuLoad: (cpu1.bench.user + cpu1.bench.system) / 1e6 / seconds,
        heartbeats: handled,
        livenessWrites: writes,
      };
      results.push(row);
      say(JSON.stringify(row));
    }

    console.log(`\nrunner heartbeats — ${RUNNERS} runners, ${DURATION_MS / 1000} s per phase, one runners-service instance, loopback`);
    console.log('phase (wait/liveness interval)  heartbeats/s  failed  service CPU ms/hb  service CPU (cores)  gateway CPU ms/hb  bench CPU (cores)  heartbeats  liveness writes');
    for (const r of results) {
      console.log(
        `${r.phase.padEnd(31)} ${String(r.heartbeatsPerSecond).padStart(12)}  ${String(r.failed).padStart(6)}  ${r.serviceCpuMsPerHeartbeat.toFixed(3).padStart(17)}  ${r.serviceCpuLoad.toFixed(2).padStart(19)}  ${r.gatewayCpuMsPerHeartbeat.toFixed(3).padStart(17)}  ${r.benchCpuLoad.toFixed(2).padStart(17)}  ${String(r.heartbeats).padStart(10)}  ${String(r.livenessWrites).padStart(15)}`,
      );
    }
    console.log('liveness writes: UPDATEs of runners.runners during the phase (pg_stat_user_tables.n_tup_upd); one per runner per');
    console.log('[actions] RUNNER_LIVENESS_UPDATE_INTERVAL (10 s by default) at most, whatever the poll rate; `/0s` writes on every poll.');
  } finally {
    await run.cleanup();
  }
}

await main();
