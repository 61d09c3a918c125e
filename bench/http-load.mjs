// The load loop of the HTTP benchmarks (gateway-user, runners-list): a keep-alive client and `connections` workers
// issuing one GET after another for a fixed time; req/s, p50 and p99 latency, errors.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** A keep-alive client with `connections` sockets: undici's Pool when it is installed, else node:http. */
export async function makeClient(origin, connections) {
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
export async function load(client, pathname, headers, { seconds, connections }) {
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


/**
 * The comparison every "route vs bare floor" benchmark makes: warm-up then a timed load of each target in turn (the
 * same path and headers), a row per target, `ratio = bare_rps / cairn_rps`, and one JSON line with `summary` fields.
 * `targets`: `[['cairn', client, label], ['bare', client, label]]`.
 */
export async function compareToFloor(targets, pathname, headers, { warmup, seconds, connections, title, summary }) {
  const results = {};
  for (const [name, client] of targets) {
    process.stderr.write(`bench: ${name}: warm-up ${warmup} s, then ${seconds} s at ${connections} connections (${client.kind})\n`);
    await load(client, pathname, headers, { seconds: warmup, connections });
    results[name] = await load(client, pathname, headers, { seconds, connections });
  }
  const row = (label, r) =>
    `${label.padEnd(56)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(7)} ms   ${r.requests} requests, ${r.errors} errors${r.firstError ? ` (${r.firstError})` : ''}`;
  console.log(title);
  for (const [name, , label] of targets) console.log(row(label, results[name]));
  const ratio = results.bare.rps / results.cairn.rps;
  console.log(`ratio = bare_rps / cairn_rps = ${ratio.toFixed(2)} (target ≤ 3)`);
  console.log(JSON.stringify({ ...summary, connections, seconds, cairn: results.cairn, bare: results.bare, ratio }));
  return results;
}
