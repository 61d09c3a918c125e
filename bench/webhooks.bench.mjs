#!/usr/bin/env node
// Webhook fan-out benchmark (run after `npm run build`): one push event matching 1,000 hooks (half system hooks,
// half repository hooks) delivered to a local receiver, with 1 and then 2 hooks-service instances. Prints
// deliveries per second per instance, publish → last delivery, the 2-vs-1 ratio, and a floor measured in the same
// run (the same signed POSTs sent straight from one process, no queue, no database). No assertions.
//
//   node bench/webhooks.bench.mjs [--hooks 1000] [--concurrency 64] [--rounds 2]
//
// Needs Postgres (127.0.0.1:5432, user postgres), Redis (127.0.0.1:6379) and /usr/sbin/nats-server; everything it
// creates (a database, a NATS server with its own store, a Redis key prefix) is private to the run and removed.
import { spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { Redis } from 'ioredis';
import pg from 'pg';
import { deploy } from '../tools/migrate/index.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// BENCH_MAIN: another build of hooks-service (e.g. a copy of an earlier dist/) to compare in the same conditions.
const MAIN = path.resolve(process.env.BENCH_MAIN ?? path.join(ROOT, 'apps/hooks-service/dist/main.js'));
const { values: args } = parseArgs({
  options: {
    hooks: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '2' },
    samples: { type: 'string', default: '20' },
  },
});
const HOOKS = Number(args.hooks);
const CONCURRENCY = Number(args.concurrency);
const ROUNDS = Number(args.rounds);
const SAMPLES = Number(args.samples);
const PG = process.env.BENCH_PG ?? 'postgresql://postgres@127.0.0.1:5432';
const REDIS = process.env.BENCH_REDIS ?? 'redis://127.0.0.1:6379';
const SECRET_KEY = 'bench-secret-key-0123456789';
const HOOK_SECRET = 'bench-hook-secret';
const REPO_ID = 4242;
/** The repository of the one hook the latency phase delivers to (no system hook exists yet then). */
const QUIET_REPO_ID = 4343;
const OWNER_ID = 7;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
async function waitFor(fn, what, timeoutMs = 120_000, everyMs = 20) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

// ---- CPU accounting: on a shared machine wall time swings with the load; CPU time per delivery much less ---------
const TICK_MS = 10; // USER_HZ is 100 on Linux
/** user + system CPU milliseconds of a process so far (0 when it is gone or /proc is absent). */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}
/** CPU of each process group of the run: the instances, the run's PostgreSQL backends, Redis, NATS, the receiver. */
async function cpuSnapshot(infra, receiver, instances, sql) {
  const { rows } = await sql.query(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  const of = (pids) => new Map(pids.filter(Boolean).map((p) => [p, cpuMs(p)]));
  return {
    service: of(instances.map((p) => p.pid)),
    postgres: of(rows.map((r) => r.pid)),
    redis: of([infra.redisPid]),
    nats: of([infra.natsPid]),
    receiver: of([receiver.child.pid]),
  };
}
/** CPU ms per group between two snapshots (a process that appeared in between counts from its start). */
function cpuDelta(a, b) {
  const out = {};
  for (const k of Object.keys(b)) {
    out[k] = 0;
    for (const [pid, ms] of b[k]) out[k] += Math.max(0, ms - (a[k].get(pid) ?? 0));
  }
  return out;
}

// ---- the receiver: its own process, so that it does not share an event loop with the sender it measures ----------
const RECEIVER_SOURCE = `
const http = require('node:http');
const seen = new Map(); let count = 0; let first = 0; let last = 0;
const server = http.createServer((req, res) => {
  if (req.url === '/stats') { res.end(JSON.stringify({ count, unique: seen.size, first, last })); return; }
  if (req.url === '/reset') { seen.clear(); count = 0; first = 0; last = 0; res.end('{}'); return; }
  req.on('data', () => {});
  req.on('end', () => {
    const now = Date.now(); if (!first) first = now; last = now; count++;
    seen.set(String(req.headers['x-gitea-delivery'] ?? count), true);
    res.writeHead(200, { 'content-type': 'text/plain' }); res.end('ok');
  });
});
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
`;

async function startReceiver() {
  const child = spawn(process.execPath, ['-e', RECEIVER_SOURCE], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((r) => child.once('message', r));
  const agent = new http.Agent({ keepAlive: true });
  const get = (p) =>
    new Promise((resolve, reject) =>
      http.get({ host: '127.0.0.1', port, path: p, agent }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve(JSON.parse(body)));
      }).on('error', reject),
    );
  return { child, port, url: `http://127.0.0.1:${port}`, stats: () => get('/stats'), reset: () => get('/reset') };
}

// ---- infrastructure -----------------------------------------------------------------------------------------------
async function startInfra() {
  const id = randomUUID().replaceAll('-', '').slice(0, 10);
  const db = `cairn_bench_hooks_${id}`;
  const admin = new pg.Client({ connectionString: `${PG}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${db}"`);
  await admin.end();
  const databaseUrl = `${PG}/${db}`;
  await deploy({ databaseUrl, service: 'hooks' });
  const natsDir = mkdtempSync(path.join(tmpdir(), 'cairn-bench-nats-'));
  const natsPort = await freePort();
  const nats = spawn('/usr/sbin/nats-server', ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', natsDir], { stdio: 'ignore' });
  const natsUrl = `nats://127.0.0.1:${natsPort}`;
  const nc = await waitFor(() => connect({ servers: natsUrl }), 'nats-server');
  const prefix = `cairn-bench-${id}`;
  const probe = new Redis(REDIS);
  const redisPid = Number(/process_id:(\d+)/.exec(await probe.info('server'))?.[1]) || 0;
  probe.disconnect();
  return {
    databaseUrl,
    natsUrl,
    nc,
    prefix,
    natsPid: nats.pid,
    redisPid,
    async close() {
      await nc.drain().catch(() => {});
      nats.kill('SIGTERM');
      rmSync(natsDir, { recursive: true, force: true });
      const redis = new Redis(REDIS);
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
      redis.disconnect();
      const a = new pg.Client({ connectionString: `${PG}/postgres` });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
      await a.end();
    },
  };
}

function startInstance(infra, n) {
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: infra.databaseUrl,
      NATS_URL: infra.natsUrl,
      REDIS_URL: REDIS,
      RUN_MODE: 'prod',
      CAIRN__OPS__PORT: '0', // several instances at once
      CAIRN__QUEUE__PREFIX: infra.prefix,
      CAIRN__SECURITY__SECRET_KEY: SECRET_KEY,
      // Production mode refuses the public default (and an unset value).
      CAIRN__SECURITY__INTERNAL_TOKEN: `bench-${randomUUID()}`,
      CAIRN__WEBHOOK__ALLOWED_HOST_LIST: 'loopback',
      CAIRN__WEBHOOK__DELIVER_CONCURRENCY: String(CONCURRENCY),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (b) => {
      out += b.toString();
      if (out.includes('hooks-service ready')) {
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        child.stdout.resume();
        if (process.env.BENCH_DEBUG) child.stderr.on('data', (b) => process.stderr.write(b));
        else child.stderr.resume();
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`instance ${n} exited with ${code}: ${out.slice(-2000)}`)));
  });
}

async function sealedSecret() {
  const { SecretBox } = await import(path.join(ROOT, 'libs/platform/dist/index.js'));
  return new SecretBox(SECRET_KEY, 'webhook').seal(HOOK_SECRET);
}

/** The one repository hook of the latency phase. */
async function seedQuietHook(infra, url) {
  const c = new pg.Client({ connectionString: infra.databaseUrl, options: '-c search_path=hooks' });
  await c.connect();
  await c.query(
    `INSERT INTO webhooks (repo_id, owner_id, is_system_webhook, type, url, content_type, secret_sealed, events, is_active, updated_at)
     VALUES ($1, 0, false, 'gitea', $2 || '/quiet', 'json', $3, '{push}', true, now())`,
    [QUIET_REPO_ID, url, await sealedSecret()],
  );
  await c.end();
}

async function seedHooks(infra, url) {
  const sealed = await sealedSecret();
  const c = new pg.Client({ connectionString: infra.databaseUrl, options: '-c search_path=hooks' });
  await c.connect();
  const system = Math.floor(HOOKS / 2);
  await c.query(
    `INSERT INTO webhooks (repo_id, owner_id, is_system_webhook, type, url, content_type, secret_sealed, events, is_active, updated_at)
     SELECT CASE WHEN g <= $1 THEN 0 ELSE $2 END, 0, g <= $1, 'gitea', $3 || '/hook/' || g, 'json', $4, '{push}', true, now()
     FROM generate_series(1, $5) AS g`,
    [system, REPO_ID, url, sealed, HOOKS],
  );
  await c.end();
  return { system, repository: HOOKS - system };
}

function pushEvent(repoId = REPO_ID) {
  const sha = (i) => createHmac('sha1', 'b').update(`${Date.now()}-${i}`).digest('hex');
  const commits = Array.from({ length: 3 }, (_, i) => ({
    id: sha(i), message: `commit ${i}`, url: `http://localhost:3000/acme/app/commit/${sha(i)}`,
    author: { name: 'Alice', email: 'alice@example.com', username: 'alice' },
    committer: { name: 'Alice', email: 'alice@example.com', username: 'alice' },
    timestamp: new Date().toISOString(), added: [], removed: [], modified: ['README.md'],
  }));
  return {
    id: randomUUID(),
    type: 'repo.evt.push.received',
    occurredAt: new Date().toISOString(),
    data: {
      repository: {
        id: repoId, ownerId: OWNER_ID, ownerName: 'acme', ownerKind: 'organization', name: 'app', fullName: 'acme/app',
        private: false, defaultBranch: 'main',
        json: { id: repoId, name: 'app', full_name: 'acme/app', owner: { id: OWNER_ID, login: 'acme' }, html_url: 'http://localhost:3000/acme/app' },
      },
      pusher: { id: 5, login: 'alice', username: 'alice', email: 'alice@example.com' },
      updates: [{ ref: 'refs/heads/main', old: sha(99), new: commits[0].id, commits, totalCommits: 3 }],
    },
  };
}

async function round(infra, receiver, instances, sql) {
  await receiver.reset();
  const js = jetstream(infra.nc);
  const event = pushEvent();
  const cpu0 = await cpuSnapshot(infra, receiver, instances, sql);
  const t0 = Date.now();
  await js.publish(event.type, JSON.stringify(event), { msgID: event.id });
  const stats = await waitFor(async () => {
    const s = await receiver.stats();
    return s.unique >= HOOKS ? s : null;
  }, 'every delivery to arrive');
  await waitFor(async () => {
    const { rows } = await sql.query(
      `SELECT count(*)::int AS n FROM hook_deliveries WHERE event_id = $1 AND status = 'delivered'`,
      [event.id],
    );
    return rows[0].n >= HOOKS;
  }, 'every delivery to be recorded');
  const tRecorded = Date.now();
  const cpu = cpuDelta(cpu0, await cpuSnapshot(infra, receiver, instances, sql));
  return {
    cpu,
    firstMs: stats.first - t0,
    lastMs: stats.last - t0,
    recordedMs: tRecorded - t0,
    requests: stats.count,
    rate: HOOKS / ((stats.last - t0) / 1000),
  };
}

/**
 * Latency on a quiet service: one event matching one hook, published on JetStream; publish → the receiver got the
 * POST (the receiver stamps its own arrival time, so how often this loop looks does not matter). Floor: one signed
 * POST sent straight to the receiver on a fresh connection (what the delivery itself costs at least).
 */
async function latency(infra, receiver) {
  const js = jetstream(infra.nc);
  const db = new pg.Client({ connectionString: infra.databaseUrl });
  await db.connect();
  // via 'jetstream': published straight on JetStream; via 'outbox': a row committed into hooks-service's outbox by
  // another process (this one), which hooks-service's relay must notice and publish — the path every event takes.
  const one = async (via) => {
    await receiver.reset();
    const event = pushEvent(QUIET_REPO_ID);
    const t0 = Date.now();
    if (via === 'jetstream') await js.publish(event.type, JSON.stringify(event), { msgID: event.id });
    else {
      await db.query('INSERT INTO hooks.outbox_events (id, subject, payload) VALUES ($1, $2, $3::jsonb)', [
        event.id, event.type, JSON.stringify(event),
      ]);
    }
    const stats = await waitFor(async () => {
      const s = await receiver.stats();
      return s.count >= 1 ? s : null;
    }, 'the quiet delivery', 30_000, 2);
    // Lets the delivery's result be stored before the next sample (not part of the figure).
    await sleep(50);
    return stats.first - t0;
  };
  const post = async () => {
    await receiver.reset();
    const body = Buffer.from(JSON.stringify(pushEvent(QUIET_REPO_ID).data, null, 2));
    const t0 = Date.now();
    await new Promise((resolve, reject) => {
      const sig = createHmac('sha256', HOOK_SECRET).update(body).digest('hex');
      const req = http.request(
        { host: '127.0.0.1', port: receiver.port, path: '/quiet-floor', method: 'POST', agent: false,
          headers: { 'content-type': 'application/json', 'content-length': body.length, 'x-gitea-signature': sig } },
        (res) => { res.resume(); res.on('end', resolve); },
      );
      req.on('error', reject);
      req.end(body);
    });
    return (await receiver.stats()).first - t0;
  };
  for (let i = 0; i < 3; i++) await one('jetstream'); // warm-up
  const samples = [];
  const outbox = [];
  const floors = [];
  for (let i = 0; i < SAMPLES; i++) {
    samples.push(await one('jetstream'));
    outbox.push(await one('outbox'));
    floors.push(await post());
  }
  await db.end();
  return { samples, outbox, floors };
}

/** The floor: the same number of signed POSTs from one process, same concurrency, no queue and no database. */
async function floor(receiver) {
  await receiver.reset();
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const body = Buffer.from(JSON.stringify(pushEvent().data, null, 2));
  let next = 0;
  const receiverCpu0 = cpuMs(receiver.child.pid);
  const cpu0 = process.cpuUsage();
  const t0 = Date.now();
  const worker = async () => {
    while (next < HOOKS) {
      const i = next++;
      const sig = createHmac('sha256', HOOK_SECRET).update(body).digest('hex');
      await new Promise((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port: receiver.port, path: `/floor/${i}`, method: 'POST', agent,
            headers: { 'content-type': 'application/json', 'content-length': body.length, 'x-gitea-delivery': randomUUID(), 'x-gitea-signature': sig } },
          (res) => { res.resume(); res.on('end', resolve); },
        );
        req.on('error', reject);
        req.end(body);
      });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const ms = Date.now() - t0;
  const used = process.cpuUsage(cpu0);
  agent.destroy();
  return { ms, rate: HOOKS / (ms / 1000), cpu: { sender: (used.user + used.system) / 1000, receiver: cpuMs(receiver.child.pid) - receiverCpu0 } };
}

const fmt = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
/** CPU milliseconds of a round per 1,000 deliveries. */
const perK = (ms) => fmt((ms * 1000) / HOOKS);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const infra = await startInfra();
  const receiver = await startReceiver();
  const instances = [];
  const sql = new pg.Client({ connectionString: infra.databaseUrl, options: '-c search_path=hooks' });
  try {
    await seedQuietHook(infra, receiver.url);
    await sql.connect();
    instances.push(await startInstance(infra, 1));
    const quiet = await latency(infra, receiver);
    const spread = (xs) => {
      const q = [...xs].sort((a, b) => a - b);
      return `median ${median(q)} ms, min ${q[0]} ms, max ${q[q.length - 1]} ms`;
    };
    console.log(`latency (1 instance, 1 hook, ${SAMPLES} events of each kind one after another; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}):`);
    console.log(`  publish on JetStream → delivery received: ${spread(quiet.samples)} (target < 50 ms)`);
    console.log(`  outbox row committed → delivery received: ${spread(quiet.outbox)}`);
    console.log(`  floor (one signed POST by hand, new connection): ${spread(quiet.floors)}`);
    if (process.env.BENCH_ONLY_LATENCY) return;
    const seeded = await seedHooks(infra, receiver.url);
    console.log(
      `webhook fan-out: ${HOOKS} hooks (${seeded.system} system + ${seeded.repository} repository), ` +
        `concurrency ${CONCURRENCY}/instance; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    );
    const fl = await floor(receiver);
    console.log(`floor (first run, warms the receiver): ${HOOKS} signed POSTs from one process in ${fl.ms} ms = ${fmt(fl.rate)}/s`);

    const results = {};
    const medians = {};
    for (const n of process.env.BENCH_ONLY_ONE ? [1] : [1, 2]) {
      while (instances.length < n) instances.push(await startInstance(infra, instances.length + 1));
      await round(infra, receiver, instances, sql); // warm-up (JIT, pools, connections)
      const runs = [];
      for (let r = 0; r < ROUNDS; r++) {
        // A floor right before each round: on a shared machine the load moves, and the ratio is what compares.
        const f = await floor(receiver);
        runs.push({ ...(await round(infra, receiver, instances, sql)), floor: f.rate, floorCpu: f.cpu });
      }
      const best = runs.reduce((a, b) => (b.rate / b.floor > a.rate / a.floor ? b : a));
      results[n] = best;
      medians[n] = {
        rate: median(runs.map((x) => x.rate)),
        lastMs: median(runs.map((x) => x.lastMs)),
        cpu: median(runs.map((x) => x.cpu.service + x.cpu.postgres + x.cpu.redis + x.cpu.nats)),
        service: median(runs.map((x) => x.cpu.service)),
      };
      for (const [i, x] of runs.entries()) {
        console.log(
          `${n} instance${n > 1 ? 's' : ''}, round ${i + 1}: first delivery ${x.firstMs} ms, last ${x.lastMs} ms, ` +
            `all recorded ${x.recordedMs} ms after publish; ${fmt(x.rate)} deliveries/s ` +
            `(${fmt(x.rate / n)}/s per instance; floor ${fmt(x.floor)}/s, ratio ${(x.rate / x.floor).toFixed(2)}); ` +
            `${x.requests - HOOKS} repeated requests`,
        );
        const c = x.cpu;
        console.log(
          `  CPU ms per 1,000 deliveries: hooks-service ${perK(c.service)}, postgres ${perK(c.postgres)}, redis ${perK(c.redis)}, ` +
            `nats ${perK(c.nats)}, receiver ${perK(c.receiver)}; floor: sender ${perK(x.floorCpu.sender)}, receiver ${perK(x.floorCpu.receiver)}; ` +
            `service+postgres+redis+nats / floor sender ${((c.service + c.postgres + c.redis + c.nats) / Math.max(1, x.floorCpu.sender)).toFixed(1)}`,
        );
      }
    }
    console.log('');
    console.log(`medians of the rounds (load average now ${loadavg().map((l) => l.toFixed(1)).join(' ')}):`);
    for (const n of Object.keys(medians)) {
      const m = medians[n];
      console.log(
        `${n} instance${n > 1 ? 's' : ' '}: ${fmt(m.rate)} deliveries/s (${fmt(m.rate / n)}/s per instance), publish → last delivery ` +
          `${m.lastMs} ms; CPU ms per 1,000 deliveries: hooks-service ${perK(m.service)}, with postgres, redis and nats ${perK(m.cpu)}`,
      );
    }
    if (!results[2]) return;
    const r1 = results[1].rate / results[1].floor;
    const r2 = results[2].rate / results[2].floor;
    console.log('');
    console.log(`best rounds (by ratio to the floor measured just before them):`);
    console.log(`1 instance : ${fmt(results[1].rate)} deliveries/s = ${r1.toFixed(2)} × floor; publish → last delivery ${results[1].lastMs} ms`);
    console.log(`2 instances: ${fmt(results[2].rate)} deliveries/s (${fmt(results[2].rate / 2)}/s per instance) = ${r2.toFixed(2)} × floor; publish → last delivery ${results[2].lastMs} ms`);
    console.log(`2 vs 1 instances: ${(results[2].rate / results[1].rate).toFixed(2)}× raw, ${(r2 / r1).toFixed(2)}× floor-normalised`);
  } finally {
    await sql.end().catch(() => {});
    for (const p of instances) p.kill('SIGTERM');
    await Promise.all(instances.map((p) => new Promise((r) => (p.exitCode !== null ? r() : p.once('exit', r)))));
    receiver.child.kill();
    await infra.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
