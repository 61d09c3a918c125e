// `GET /api/v1/packages/{owner}/generic/{name}` (Gitea's versions list: a page of 50, newest first, and the total)
// over 10,000 versions of one package, with the owner's `read:package` token, through the whole stack (gateway →
// NATS → identity-service for the token → packages-service → identity-service for the owner → PostgreSQL) against
// its floor measured in the same run: a bare Fastify + pg handler in its own process that resolves the token with
// identity-service's SQL, looks the owner and the package up and runs the page and total statements packages-service
// runs, answering the same JSON. Prints req/s, p50 and p99 of both and `ratio = bare_rps / cairn_rps` (target ≤ 3).
// Nothing asserts on time.
//
//   npm run build && node bench/packages-versions.bench.mjs [--duration 10] [--warmup 3] [--connections 50] [--versions 10000]
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { benchRun, say, serveBareFloor, startBareFloor, startSuiteWithAdmin } from './suite-bench-support.mjs';
import { compareToFloor, makeClient } from './http-load.mjs';
import { TOKEN_SQL, USER_SQL } from './identity-floor-sql.mjs';

const SELF = fileURLToPath(import.meta.url);
const PACKAGE = 'bench-package';

const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: process.env.BENCH_DURATION ?? '10' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? '3' },
    connections: { type: 'string', default: process.env.BENCH_CONNECTIONS ?? '50' },
    versions: { type: 'string', default: process.env.BENCH_VERSIONS ?? '10000' },
    bare: { type: 'boolean', default: false },
    port: { type: 'string' },
    'database-url': { type: 'string' },
    'root-url': { type: 'string' },
  },
});

if (opts.bare) await runBareServer(Number(opts.port), String(opts['database-url']), String(opts['root-url']));
else await main();

// ---- the floor: identity's token and owner statements, then the package, page and total as packages-service asks ----

/** The owner by its lower-cased name (identity-service's owner lookup). */
const OWNER_SQL = USER_SQL.replace('WHERE "identity"."users"."id" = $1 OFFSET $2', 'WHERE "identity"."users"."lower_name" = $1 LIMIT 1');
const PACKAGE_SQL = `SELECT "packages"."package"."id", "packages"."package"."owner_id", "packages"."package"."type",
  "packages"."package"."name", "packages"."package"."lower_name", "packages"."package"."repo_id",
  "packages"."package"."semver_compatible", "packages"."package"."is_internal" FROM "packages"."package"
  WHERE ("packages"."package"."owner_id" = $1 AND "packages"."package"."type" = $2 AND "packages"."package"."lower_name" = $3
  AND "packages"."package"."is_internal" = $4) LIMIT $5 OFFSET $6`;
const PAGE_SQL = `SELECT v."id", v."version", v."lower_version", v."creator_id", v."created_at",
  p."id" AS package_id, p."owner_id", p."type", p."name", p."lower_name", p."repo_id"
  FROM "packages"."package_version" v JOIN "packages"."package" p ON p."id" = v."package_id"
  WHERE v."is_internal" = false AND p."is_internal" = false AND p."id" = $1
  ORDER BY v."created_at" DESC, v."id" DESC LIMIT $2 OFFSET $3`;
const COUNT_SQL = `SELECT COUNT(*) AS "_count" FROM "packages"."package_version" v JOIN "packages"."package" p ON p."id" = v."package_id"
  WHERE v."is_internal" = false AND p."is_internal" = false AND p."id" = $1`;

async function runBareServer(port, databaseUrl, rootUrl) {
  const { default: Fastify } = await import('fastify');
  const pool = new pg.Pool({ connectionString: databaseUrl });
  const app = Fastify({ logger: false });
  const time = (d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const userJson = (u) => ({
    id: u.id, login: u.name, login_name: u.login_name, source_id: u.source_id, full_name: u.full_name, email: u.email,
    avatar_url: '', html_url: `${rootUrl}${u.name}`, language: u.language, is_admin: false, last_login: time(u.created_at),
    created: time(u.created_at), restricted: u.restricted, active: u.is_active, prohibit_login: u.prohibit_login,
    location: u.location, website: u.website, description: u.description, visibility: u.visibility, followers_count: 0,
    following_count: 0, starred_repos_count: 0, username: u.name,
  });
  app.get('/api/v1/packages/:owner/:type/:name', async (req, reply) => {
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('token ') ? auth.slice(6).trim() : '';
    const hash = createHash('sha256').update(token, 'utf8').digest('hex');
    const t = (await pool.query(TOKEN_SQL, [hash, 1, 0])).rows[0];
    if (!t) return reply.status(401).send({ message: 'invalid token' });
    const me = (await pool.query(USER_SQL, [t.user_id, 0])).rows[0];
    const owner = (await pool.query(OWNER_SQL, [req.params.owner.toLowerCase()])).rows[0];
    if (!owner) return reply.status(404).send({ message: 'owner does not exist' });
    if (owner.id !== me.id && owner.visibility !== 'public') return reply.status(403).send({ message: 'forbidden' });
    const pkg = (await pool.query(PACKAGE_SQL, [owner.id, req.params.type, req.params.name.toLowerCase(), false, 1, 0])).rows[0];
    if (!pkg) return [];
    const limit = Math.min(50, Number(req.query.limit) || 30);
    const [rows, count] = await Promise.all([pool.query(PAGE_SQL, [pkg.id, limit, 0]), pool.query(COUNT_SQL, [pkg.id])]);
    const ownerJson = userJson(owner);
    reply.header('x-total-count', String(count.rows[0]._count));
    return rows.rows.map((v) => ({
      id: v.id, owner: ownerJson, repository: null, creator: ownerJson, type: v.type, name: v.name, version: v.version,
      html_url: `${ownerJson.html_url}/-/packages/${v.type}/${encodeURIComponent(v.lower_name)}/${encodeURIComponent(v.lower_version)}`,
      created_at: time(v.created_at),
    }));
  });
  await serveBareFloor(app, pool, port);
}

// ---- orchestration --------------------------------------------------------------------------------------------------

async function main() {
  const seconds = Number(opts.duration);
  const warmup = Number(opts.warmup);
  const connections = Number(opts.connections);
  const versions = Number(opts.versions);
  const run = benchRun('cairn-bench');
  try {
    // The owner: the CLI's site admin, with a read:package token.
    const { suite, databaseUrl, adminName: ownerName, headers } = await startSuiteWithAdmin(run, ['read:package']);

    // One generic package with 10,000 versions, one a minute apart, as uploads leave them (files are not listed).
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const owner = (await db.query('SELECT id FROM identity.users WHERE lower_name = $1', [ownerName])).rows[0];
    const pkg = (
      await db.query(`INSERT INTO packages.package (owner_id, type, name, lower_name) VALUES ($1, 'generic', $2, $2) RETURNING id`, [owner.id, PACKAGE])
    ).rows[0];
    await db.query(
      `INSERT INTO packages.package_version (package_id, version, lower_version, creator_id, created_at)
       SELECT $1, '1.0.' || i, '1.0.' || i, $2, now() - (($3 - i) || ' minutes')::interval FROM generate_series(1, $3) AS i`,
      [pkg.id, owner.id, versions],
    );
    await db.query('ANALYZE packages.package_version');
    await db.end();
    say(`inserted ${versions} versions`);

    const floorUrl = await startBareFloor(run, SELF, ['--database-url', databaseUrl, '--root-url', suite.env.CAIRN__SERVER__ROOT_URL ?? `${suite.baseUrl}/`]);
    const page = `/api/v1/packages/${ownerName}/generic/${PACKAGE}?limit=50`;
    const cairn = await makeClient(suite.baseUrl, connections);
    const floor = await makeClient(floorUrl, connections);
    run.defer(() => cairn.close(), () => floor.close());
    const a = JSON.parse((await cairn.get(page, headers)).text);
    const b = JSON.parse((await floor.get(page, headers)).text);
    const versionsOf = (x) => JSON.stringify(Array.isArray(x) ? x.map((p) => p.version) : x);
    if (!Array.isArray(a) || a.length !== 50 || versionsOf(a) !== versionsOf(b) || a[0].version !== `1.0.${versions}`) {
      throw new Error(`the two servers disagree: ${versionsOf(a).slice(0, 300)} vs ${versionsOf(b).slice(0, 300)}`);
    }
    await compareToFloor(
      [['cairn', cairn, 'cairn (gateway → NATS → identity + packages → pg)'], ['bare', floor, 'floor (bare Fastify + pg, same SQL)']],
      page,
      headers,
      {
        warmup, seconds, connections,
        title: `GET /packages/{owner}/generic/{name}?limit=50 over ${versions} versions, ${connections} connections, ${seconds} s`,
        summary: { bench: 'packages-versions', versions },
      },
    );
  } finally {
    await run.cleanup();
  }
}
