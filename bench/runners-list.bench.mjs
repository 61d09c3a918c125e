// `GET /api/v1/admin/actions/runners` (a page of 50 and the total) over 1,000 runners, with a site admin's access
// token, through the whole stack (gateway → NATS → identity-service for the token → runners-service → PostgreSQL)
// against its floor measured in the same run: a bare Fastify + pg handler in its own process that resolves the token
// with identity-service's SQL and runs the SQL runners-service runs for the page and the total, answering the same
// JSON. Prints req/s, p50 and p99 of both and `ratio = bare_rps / cairn_rps` (target ≤ 3). Nothing asserts on time.
//
//   npm run build && node bench/runners-list.bench.mjs [--duration 10] [--warmup 3] [--connections 50] [--runners 1000]
import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort } from '../scripts/suite.mjs';
import {
  basicAuth, benchRun, createSiteAdmin, postJson, say, scratchDatabase, startBenchSuite, startNatsServer, stopChild,
} from './suite-bench-support.mjs';
import { load, makeClient } from './http-load.mjs';
import { TOKEN_SQL, USER_SQL } from './identity-floor-sql.mjs';

const SELF = fileURLToPath(import.meta.url);
const PAGE = '/api/v1/admin/actions/runners?limit=50';
const OFFLINE_MS = 60_000;
const IDLE_MS = 10_000;

const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: process.env.BENCH_DURATION ?? '10' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? '3' },
    connections: { type: 'string', default: process.env.BENCH_CONNECTIONS ?? '50' },
    runners: { type: 'string', default: process.env.BENCH_RUNNERS ?? '1000' },
    bare: { type: 'boolean', default: false },
    port: { type: 'string' },
    'database-url': { type: 'string' },
  },
});

if (opts.bare) await runBareServer(Number(opts.port), String(opts['database-url']));
else await main();

// ---- the floor: the list's two statements (page + count) as runners-service's Prisma query asks for them ---------

const PAGE_SQL = `SELECT "runners"."runners"."id", "runners"."runners"."uuid", "runners"."runners"."name", "runners"."runners"."owner_id",
  "runners"."runners"."repo_id", "runners"."runners"."description", "runners"."runners"."version", "runners"."runners"."labels",
  "runners"."runners"."token_hash", "runners"."runners"."ephemeral", "runners"."runners"."registration_token_id",
  "runners"."runners"."last_online", "runners"."runners"."last_active", "runners"."runners"."created_at",
  "runners"."runners"."updated_at", "runners"."runners"."deleted_at"
  FROM "runners"."runners" WHERE "runners"."runners"."deleted_at" IS NULL
  ORDER BY "runners"."runners"."last_online" DESC NULLS LAST, "runners"."runners"."id" DESC LIMIT $1 OFFSET $2`;
const COUNT_SQL = `SELECT COUNT(*) AS "_count" FROM (SELECT "runners"."runners"."id" FROM "runners"."runners"
  WHERE "runners"."runners"."deleted_at" IS NULL OFFSET $1) AS "sub"`;

async function runBareServer(port, databaseUrl) {
  const { default: Fastify } = await import('fastify');
  const pool = new pg.Pool({ connectionString: databaseUrl });
  const app = Fastify({ logger: false });
  const time = (d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  app.get('/api/v1/admin/actions/runners', async (req, reply) => {
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('token ') ? auth.slice(6).trim() : '';
    const hash = createHash('sha256').update(token, 'utf8').digest('hex');
    const t = (await pool.query(TOKEN_SQL, [hash, 1, 0])).rows[0];
    if (!t) return reply.status(401).send({ message: 'invalid token' });
    const u = (await pool.query(USER_SQL, [t.user_id, 0])).rows[0];
    if (!u.is_admin) return reply.status(403).send({ message: 'user should be the site admin' });
    const limit = Math.min(50, Number(req.query.limit) || 30);
    const [rows, count] = await Promise.all([pool.query(PAGE_SQL, [limit, 0]), pool.query(COUNT_SQL, [0])]);
    const now = Date.now();
    return {
      runners: rows.rows.map((r) => {
        const online = r.last_online !== null && now - r.last_online.getTime() < OFFLINE_MS;
        return {
          id: r.id,
          name: r.name,
          status: online ? 'online' : 'offline',
          busy: online && r.last_active !== null && now - r.last_active.getTime() < IDLE_MS,
          ephemeral: r.ephemeral,
          labels: r.labels.map((name, id) => ({ id, name, type: 'custom' })),
          last_online: r.last_online ? time(r.last_online) : null,
        };
      }),
      total_count: Number(count.rows[0]._count),
    };
  });
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

// ---- orchestration --------------------------------------------------------------------------------------------------

async function main() {
  const seconds = Number(opts.duration);
  const warmup = Number(opts.warmup);
  const connections = Number(opts.connections);
  const runners = Number(opts.runners);
  const run = benchRun('cairn-bench');
  const { id } = run;
  try {
    const natsUrl = await startNatsServer(run);
    const databaseUrl = await scratchDatabase(run, `cairn_bench_${id}`);
    say('starting the suite');
    const suite = await startBenchSuite(run, {
      databaseUrl,
      natsUrl,
      queuePrefix: `cairn-bench-${id}`,
      env: { RUN_MODE: 'prod', CAIRN__SECURITY__SECRET_KEY: randomBytes(24).toString('hex'), CAIRN__SECURITY__INTERNAL_TOKEN: randomBytes(24).toString('hex') },
    });
    const barePort = await freePort();

    const adminName = `bench-admin-${id}`;
    const adminPw = `Pw-${randomBytes(9).toString('hex')}`;
    await createSiteAdmin(suite, adminName, adminPw);
    const created = await postJson(`${suite.baseUrl}/api/v1/users/${adminName}/tokens`, basicAuth(adminName, adminPw), {
      name: 'bench', scopes: ['read:admin'],
    });
    const headers = { authorization: `token ${created.sha1}` };

    // 1,000 runners of every level, half of them seen recently, as Register and the heartbeats leave them.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const rows = Array.from({ length: runners }, (_, i) => [
      randomUUID(), `runner-${i}`, i % 4 === 1 ? 1 + (i % 50) : 0, i % 4 === 2 ? 1 + (i % 50) : 0,
      ['ubuntu-latest', 'linux', `pool-${i % 7}`], createHash('sha256').update(`credential-${i}`).digest('hex'),
      i % 2 === 0 ? new Date(Date.now() - (i % 120) * 1000) : null,
    ]);
    for (let i = 0; i < rows.length; i += 200) {
      const chunk = rows.slice(i, i + 200);
      const values = chunk.map((_, j) => `($${j * 7 + 1}, $${j * 7 + 2}, $${j * 7 + 3}, $${j * 7 + 4}, $${j * 7 + 5}, $${j * 7 + 6}, $${j * 7 + 7}, now())`);
      await db.query(
        `INSERT INTO runners.runners (uuid, name, owner_id, repo_id, labels, token_hash, last_online, updated_at) VALUES ${values.join(', ')}`,
        chunk.flat(),
      );
    }
    await db.query('ANALYZE runners.runners');
    await db.end();
    say(`inserted ${runners} runners`);

    const bare = spawn(process.execPath, [SELF, '--bare', '--port', String(barePort), '--database-url', databaseUrl], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    run.defer(() => stopChild(bare));
    await new Promise((resolve, reject) => {
      bare.stdout.on('data', (d) => d.toString().includes('listening') && resolve());
      bare.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
    });

    const cairn = await makeClient(suite.baseUrl, connections);
    const floor = await makeClient(`http://127.0.0.1:${barePort}`, connections);
    run.defer(() => cairn.close(), () => floor.close());
    const a = JSON.parse((await cairn.get(PAGE, headers)).text);
    const b = JSON.parse((await floor.get(PAGE, headers)).text);
    const ids = (x) => JSON.stringify(x.runners?.map((r) => r.id));
    if (a.total_count !== runners || b.total_count !== runners || ids(a) !== ids(b) || a.runners.length !== 50) {
      throw new Error(`the two servers disagree: ${JSON.stringify(a).slice(0, 300)} vs ${JSON.stringify(b).slice(0, 300)}`);
    }

    const results = {};
    for (const [name, client] of [['cairn', cairn], ['bare', floor]]) {
      say(`${name}: warm-up ${warmup} s, then ${seconds} s at ${connections} connections (${client.kind})`);
      await load(client, PAGE, headers, { seconds: warmup, connections });
      results[name] = await load(client, PAGE, headers, { seconds, connections });
    }
    const c = results.cairn;
    const f = results.bare;
    const row = (label, r) =>
      `${label.padEnd(52)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(7)} ms   ${r.requests} requests, ${r.errors} errors${r.firstError ? ` (${r.firstError})` : ''}`;
    console.log(`GET /admin/actions/runners?limit=50 over ${runners} runners, ${connections} connections, ${seconds} s`);
    console.log(row('cairn (gateway → NATS → identity + runners → pg)', c));
    console.log(row('floor (bare Fastify + pg, same SQL)', f));
    console.log(`ratio = bare_rps / cairn_rps = ${(f.rps / c.rps).toFixed(2)} (target ≤ 3)`);
    console.log(JSON.stringify({ bench: 'runners-list', runners, connections, seconds, cairn: c, bare: f, ratio: f.rps / c.rps }));
  } finally {
    await run.cleanup();
  }
}
