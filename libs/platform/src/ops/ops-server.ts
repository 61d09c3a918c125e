import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { collectDefaultMetrics, type Registry } from 'prom-client';
import { platformMetrics } from '../metrics/dead-letters.js';
import { readinessCheck } from '../metrics/cairn-metrics.js';
import { within } from '../common/within.js';
import { listenOn } from '../common/listen-on.js';
import { EventLoopHeartbeat } from './event-loop-heartbeat.js';
import { registeredReadinessChecks, type ReadinessCheck } from './readiness.js';
import type { OpsAddress } from './ops-settings.js';

/** A probe must answer in its own timeout. */
const CHECK_TIMEOUT_MS = 2_000;

export interface OpsServerOptions {
  /** Every metric of {@link platformMetrics} carries it as `service`. */
  service: string;
  address: OpsAddress;
  checks: () => ReadinessCheck[];
  registries?: Registry[];
  heartbeat?: EventLoopHeartbeat;
}

export interface OpsServer {
  /** Port 0 picks one. */
  readonly port: number;
  /** Once every check answers (the app has joined its queue group). */
  markStarted(): void;
  /** So load balancers and peers move away before the connections close. */
  markStopping(): void;
  close(): Promise<void>;
}

let defaultMetricsOn = false;

/** On its own port, apart from public traffic. */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  platformMetrics.setDefaultLabels({ service: options.service });
  if (!defaultMetricsOn) {
    collectDefaultMetrics({ register: platformMetrics });
    defaultMetricsOn = true;
  }
  const heartbeat = options.heartbeat ?? new EventLoopHeartbeat();
  heartbeat.start();
  let state: 'starting' | 'started' | 'stopping' = 'starting';
  const registries = [platformMetrics, ...(options.registries ?? [])];

  const routes: Record<string, (res: ServerResponse) => Promise<void>> = {
    '/livez': async (res) => {
      const lagMs = Math.round(heartbeat.lagMs);
      reply(res, heartbeat.alive ? 200 : 503, { status: heartbeat.alive ? 'alive' : 'event loop stuck', eventLoopLagMs: lagMs });
    },
    '/readyz': async (res) => {
      const checks = await runChecks([...options.checks(), ...registeredReadinessChecks()]);
      const ready = state === 'started' && Object.values(checks).every(Boolean);
      reply(res, ready ? 200 : 503, { status: ready ? 'ready' : state === 'started' ? 'not ready' : state, checks });
    },
    '/metrics': async (res) => {
      const texts = await Promise.all(registries.map((r) => r.metrics()));
      res.writeHead(200, { 'content-type': platformMetrics.contentType });
      res.end(texts.join('\n'));
    },
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    const route = routes[path];
    if (!route) return reply(res, 404, { message: `no ${path} here: /livez, /readyz and /metrics are` });
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, { message: 'only GET' });
    route(res).catch((err: unknown) => reply(res, 500, { message: (err as Error).message }));
  });
  server.keepAliveTimeout = 5_000;
  const port = await listenOn(server, options.address.port, options.address.host);

  return {
    port,
    markStarted: () => {
      if (state === 'starting') state = 'started';
    },
    markStopping: () => {
      state = 'stopping';
    },
    close: async () => {
      heartbeat.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function runChecks(checks: ReadinessCheck[]): Promise<Record<string, boolean>> {
  const results: Record<string, boolean> = {};
  await Promise.all(
    checks.map(async (c) => {
      const ok = await within(c.check(), CHECK_TIMEOUT_MS).catch(() => false);
      // Several parts may report the same dependency: it is ready only when all of them are.
      results[c.name] = (results[c.name] ?? true) && ok === true;
    }),
  );
  for (const [name, ok] of Object.entries(results)) readinessCheck.set({ check: name }, ok ? 1 : 0);
  return results;
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}
