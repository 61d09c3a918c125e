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
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { APPS, REPO_ROOT, freePort } from '../scripts/suite.mjs';
import {
  basicAuth, benchRun, createSiteAdmin, postJson, say, scratchDatabase, startBenchSuite, startNatsServer, stopChild,
} from './suite-bench-support.mjs';

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

/**
 * The statements identity-service's Prisma client sends to resolve a token (captured with `log_statement = all`):
 * the token by its SHA-256 hash, its user, the user's two-factor enrolment — then it renders Gitea's `User`.
 */
const TOKEN_SQL = `SELECT "identity"."access_tokens"."id", "identity"."access_tokens"."user_id", "identity"."access_tokens"."name",
  "identity"."access_tokens"."token_hash", "identity"."access_tokens"."token_last_eight", "identity"."access_tokens"."scopes",
  "identity"."access_tokens"."created_at", "identity"."access_tokens"."last_used_at"
  FROM "identity"."access_tokens" WHERE ("identity"."access_tokens"."token_hash" = $1 AND 1=1) LIMIT $2 OFFSET $3`;
const USER_SQL = `SELECT "identity"."users"."id", "identity"."users"."type", "identity"."users"."name", "identity"."users"."lower_name",
  "identity"."users"."full_name", "identity"."users"."email", "identity"."users"."lower_email", "identity"."users"."password_hash",
  "identity"."users"."must_change_password", "identity"."users"."login_name", "identity"."users"."source_id",
  "identity"."users"."is_admin", "identity"."users"."is_active", "identity"."users"."prohibit_login", "identity"."users"."restricted",
  "identity"."users"."visibility", "identity"."users"."language", "identity"."users"."location", "identity"."users"."website",
  "identity"."users"."description", "identity"."users"."allow_git_hook", "identity"."users"."allow_import_local",
  "identity"."users"."allow_create_organization", "identity"."users"."max_repo_creation",
  "identity"."users"."repo_admin_change_team_access", "identity"."users"."last_login_at", "identity"."users"."created_at",
  "identity"."users"."updated_at" FROM "identity"."users" WHERE "identity"."users"."id" = $1 OFFSET $2`;
const TWO_FACTOR_SQL = `SELECT "identity"."two_factors"."id", "identity"."two_factors"."user_id" FROM "identity"."two_factors"
  WHERE "identity"."two_factors"."user_id" IN ($1) OFFSET $2`;

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

// ---- the load loop ------------------------------------------------------------------------------------------------

/** A keep-alive client with `connections` sockets: undici's Pool when it is installed, else node:http. */
async function makeClient(origin, connections) {
  try {
    const { Pool } = await import('undici');
    const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
    return {
      kind: 'undici Pool',
      async get(pathname, headers) {
        const res = await pool.request({ path: pathname, method: 'GET', headers });
        const text = await res.body.text();
        return { status: res.statusCode, text };
      },
      close: () => pool.close(),
    };
  } catch {
    const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
    return {
      kind: 'node:http Agent',
      get(pathname, headers) {
        return new Promise((resolve, reject) => {
          const req = http.get(`${origin}${pathname}`, { agent, headers }, (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode, text }));
          });
          req.on('error', reject);
        });
      },
      close: async () => agent.destroy(),
    };
  }
}

/** `connections` workers each issue one request after another until the time is up. */
async function load(client, pathname, headers, { seconds, connections }) {
  const latencies = [];
  let errors = 0;
  let firstError = '';
  const start = performance.now();
  const end = start + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        const res = await client.get(pathname, headers);
        if (res.status !== 200) {
          errors++;
          firstError ||= `${res.status} ${res.text.slice(0, 200)}`;
        }
      } catch (err) {
        errors++;
        firstError ||= err.message;
      }
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  return { requests: latencies.length, errors, firstError, rps: latencies.length / elapsed, p50: pct(0.5), p99: pct(0.99) };
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
