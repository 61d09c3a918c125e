// `GET /api/v1/admin/actions/runners` (a page of 50 and the total) over 1,000 runners, with a site admin's access
// token, through the whole stack (gateway → NATS → identity-service for the token → runners-service → PostgreSQL)
// against its floor measured in the same run: a bare Fastify + pg handler in its own process that resolves the token
// with identity-service's SQL and runs the SQL runners-service runs for the page and the total, answering the same
// JSON. Prints req/s, p50 and p99 of both and `ratio = bare_rps / cairn_rps` (target ≤ 3). Nothing asserts on time.
//
//   npm run build && node bench/runners-list.bench.mjs [--duration 10] [--warmup 3] [--connections 50] [--runners 1000]
import { createHash, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { benchRun, say, serveBareFloor, startBareFloor, startSuiteWithAdmin } from './suite-bench-support.mjs';
import { compareToFloor, makeClient } from './http-load.mjs';
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
  await serveBareFloor(app, pool, port);
}

// ---- orchestration --------------------------------------------------------------------------------------------------

async function main() {
  const seconds = Number(opts.duration);
  const warmup = Number(opts.warmup);
  const connections = Number(opts.connections);
  const runners = Number(opts.runners);
  const run = benchRun('cairn-bench');
  try {
    const { suite, databaseUrl, headers } = await startSuiteWithAdmin(run, ['read:admin']);

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

    const floorUrl = await startBareFloor(run, SELF, ['--database-url', databaseUrl]);
    const cairn = await makeClient(suite.baseUrl, connections);
    const floor = await makeClient(floorUrl, connections);
    run.defer(() => cairn.close(), () => floor.close());
    const a = JSON.parse((await cairn.get(PAGE, headers)).text);
    const b = JSON.parse((await floor.get(PAGE, headers)).text);
    const ids = (x) => JSON.stringify(x.runners?.map((r) => r.id));
    if (a.total_count !== runners || b.total_count !== runners || ids(a) !== ids(b) || a.runners.length !== 50) {
      throw new Error(`the two servers disagree: ${JSON.stringify(a).slice(0, 300)} vs ${JSON.stringify(b).slice(0, 300)}`);
    }

    await compareToFloor(
      [['cairn', cairn, 'cairn (gateway → NATS → identity + runners → pg)'], ['bare', floor, 'floor (bare Fastify + pg, same SQL)']],
      PAGE,
      headers,
      {
        warmup, seconds, connections,
        title: `GET /admin/actions/runners?limit=50 over ${runners} runners, ${connections} connections, ${seconds} s`,
        summary: { bench: 'runners-list', runners },
      },
    );
  } finally {
    await run.cleanup();
  }
}
