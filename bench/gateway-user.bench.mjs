// `GET /api/v1/user` with an access token through the whole stack (gateway → NATS → identity-service → PostgreSQL)
// against its floor measured in the same run: a bare Fastify + pg handler in its own process that runs the SQL
// identity-service runs to resolve a token and answers the same user JSON. Prints req/s, p50 and p99 latency of both
// and `ratio = bare_rps / cairn_rps` (target ≤ 3). Nothing asserts on time.
//
//   npm run build && node bench/gateway-user.bench.mjs [--duration 10] [--warmup 3] [--connections 50] [--rounds 1]
//
// The suite is started as `npm start` starts it (every app its own process, from dist/), isolated: its own NATS
// server, database, Redis prefix and ports; everything is removed again at the end.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { APPS, REPO_ROOT, freePort } from '../scripts/suite.mjs';
import {
  basicAuth, benchRun, createSiteAdmin, postJson, say, scratchDatabase, serveBareFloor, startBenchSuite, startNatsServer,
  stopChild,
} from './suite-bench-support.mjs';
import { load, makeClient } from './http-load.mjs';
import { TOKEN_SQL, TWO_FACTOR_SQL, USER_SQL } from './identity-floor-sql.mjs';

const SELF = fileURLToPath(import.meta.url);

const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: process.env.BENCH_DURATION ?? '10' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? '3' },
    connections: { type: 'string', default: process.env.BENCH_CONNECTIONS ?? '50' },
    rounds: { type: 'string', default: process.env.BENCH_ROUNDS ?? '1' },
    apps: { type: 'string' },
    // internal: run as the bare floor server
    bare: { type: 'boolean', default: false },
    port: { type: 'string' },
    'database-url': { type: 'string' },
    'root-url': { type: 'string' },
  },
});

if (opts.bare) {
  await runBareServer(Number(opts.port), String(opts['database-url']), String(opts['root-url']));
} else {
  await main();
}

// ---- the floor: Fastify + pg, the same queries identity-service sends for a token ------------------------------

async function runBareServer(port, databaseUrl, rootUrl) {
  const { default: Fastify } = await import('fastify');
  // Prisma's pg adapter uses a pg Pool with its defaults (10 connections): the same here.
  const pool = new pg.Pool({ connectionString: databaseUrl });
  const lastWrite = new Map(); // the same in-process last_used_at throttle (1 min): no write inside the window
  const app = Fastify({ logger: false });
  const time = (d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  app.get('/api/v1/user', async (req, reply) => {
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('token ') ? auth.slice(6).trim() : '';
    if (!token) return reply.status(401).send({ message: 'token is required' });
    const hash = createHash('sha256').update(token, 'utf8').digest('hex');
    const t = (await pool.query(TOKEN_SQL, [hash, 1, 0])).rows[0];
    if (!t) return reply.status(401).send({ message: 'invalid token' });
    const u = (await pool.query(USER_SQL, [t.user_id, 0])).rows[0];
    const twoFactor = (await pool.query(TWO_FACTOR_SQL, [u.id, 0])).rows[0] ?? null;
    if (u.type !== 'user' || u.prohibit_login || !u.is_active) return reply.status(401).send({ message: 'invalid credentials' });
    const now = Date.now();
    if ((lastWrite.get(t.id) ?? 0) < now - 60_000) {
      lastWrite.set(t.id, now);
      pool.query('UPDATE "identity"."access_tokens" SET last_used_at = now() WHERE id = $1', [t.id]).catch(() => undefined);
    }
    void twoFactor;
    return {
      id: u.id,
      login: u.name,
      login_name: u.login_name,
      source_id: u.source_id,
      full_name: u.full_name,
      email: u.email,
      avatar_url: `${rootUrl}avatars/${createHash('md5').update((u.email || u.lower_name).trim().toLowerCase()).digest('hex')}`,
      html_url: `${rootUrl}${u.name}`,
      language: u.language,
      is_admin: u.is_admin,
      last_login: u.last_login_at ? time(u.last_login_at) : '1970-01-01T00:00:00Z',
      created: time(u.created_at),
      restricted: u.restricted,
      active: u.is_active,
      prohibit_login: u.prohibit_login,
      location: u.location,
      website: u.website,
      description: u.description,
      visibility: u.visibility,
      followers_count: 0,
      following_count: 0,
      starred_repos_count: 0,
      username: u.name,
    };
  });
  await serveBareFloor(app, pool, port);
}

// ---- orchestration --------------------------------------------------------------------------------------------------

async function main() {
  const seconds = Number(opts.duration);
  const warmup = Number(opts.warmup);
  const connections = Number(opts.connections);
  const rounds = Math.max(1, Number(opts.rounds));
  const apps = opts.apps ? opts.apps.split(',') : undefined;
  for (const app of APPS) {
    if ((!apps || apps.includes(app.name)) && !existsSync(path.join(REPO_ROOT, app.main))) {
      throw new Error(`${app.main} is missing: run \`npm run build\` first`);
    }
  }
  const run = benchRun('cairn-bench');
  const { id } = run;
  try {
    // Infrastructure of our own: NATS server, database, Redis prefix, ports.
    const natsUrl = await startNatsServer(run);
    const databaseUrl = await scratchDatabase(run, `cairn_bench_${id}`);
    say('starting the suite');
    const suite = await startBenchSuite(run, {
      databaseUrl,
      natsUrl,
      queuePrefix: `cairn-bench-${id}`,
      apps,
      env: { RUN_MODE: 'prod', CAIRN__SECURITY__SECRET_KEY: randomBytes(24).toString('hex'), CAIRN__SECURITY__INTERNAL_TOKEN: randomBytes(24).toString('hex') },
    });
    const barePort = await freePort();

    // A site admin (the real CLI), a user, and a read:user token for that user.
    const adminName = `bench-admin-${id}`;
    const adminPw = `Pw-${randomBytes(9).toString('hex')}`;
    await createSiteAdmin(suite, adminName, adminPw);
    const adminAuth = basicAuth(adminName, adminPw);
    const userName = `bench-user-${id}`;
    const userPw = `Pw-${randomBytes(9).toString('hex')}`;
    await postJson(`${suite.baseUrl}/api/v1/admin/users`, adminAuth, {
      username: userName, email: `${userName}@example.com`, password: userPw, must_change_password: false, full_name: 'Bench User',
    });
    const created = await postJson(`${suite.baseUrl}/api/v1/users/${userName}/tokens`, basicAuth(userName, userPw), {
      name: 'bench', scopes: ['read:user'],
    });
    const headers = { authorization: `token ${created.sha1}` };

    // The floor, in its own process (as the gateway is).
    const bare = spawn(process.execPath, [SELF, '--bare', '--port', String(barePort), '--database-url', databaseUrl, '--root-url', suite.rootUrl], {
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
    const a = JSON.parse((await cairn.get('/api/v1/user', headers)).text);
    const b = JSON.parse((await floor.get('/api/v1/user', headers)).text);
    if (a.login !== userName || b.login !== userName || JSON.stringify(Object.keys(a)) !== JSON.stringify(Object.keys(b))) {
      throw new Error(`the two servers disagree: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    }

    const results = { cairn: [], bare: [] };
    for (let round = 1; round <= rounds; round++) {
      for (const [name, client] of [['cairn', cairn], ['bare', floor]]) {
        say(`round ${round}: ${name} warm-up ${warmup} s, then ${seconds} s at ${connections} connections (${client.kind})`);
        await load(client, '/api/v1/user', headers, { seconds: warmup, connections });
        results[name].push(await load(client, '/api/v1/user', headers, { seconds, connections }));
      }
    }
    const best = (list) => list.reduce((x, y) => (y.rps > x.rps ? y : x));
    const c = best(results.cairn);
    const f = best(results.bare);
    const row = (label, r) =>
      `${label.padEnd(44)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(7)} ms   ${r.requests} requests, ${r.errors} errors${r.firstError ? ` (${r.firstError})` : ''}`;
    console.log(`GET /api/v1/user with a token, ${connections} connections, ${seconds} s${rounds > 1 ? `, best of ${rounds} rounds` : ''}`);
    console.log(row('cairn (gateway → NATS → identity → pg)', c));
    console.log(row('floor (bare Fastify + pg, same SQL)', f));
    console.log(`ratio = bare_rps / cairn_rps = ${(f.rps / c.rps).toFixed(2)} (target ≤ 3)`);
    console.log(JSON.stringify({ bench: 'gateway-user', connections, seconds, cairn: c, bare: f, ratio: f.rps / c.rps }));
  } finally {
    await run.cleanup();
  }
}
