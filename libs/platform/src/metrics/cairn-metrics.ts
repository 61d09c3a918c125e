import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { platformMetrics } from './dead-letters.js';
import { within } from '../common/within.js';

/**
 * The one home of Cairn's metric names (deploy/observability may use only these: a test checks). Labels are
 * bounded sets, never ids.
 */

/** Work that reads a gauge's current values from elsewhere (Redis, Postgres, JetStream) when Prometheus scrapes. */
type ScrapeHook = () => Promise<void>;
const scrapeHooks = new Map<string, Set<ScrapeHook>>();
/** A scrape never waits longer than this for one source: a dependency that is down leaves its series out. */
const SCRAPE_HOOK_TIMEOUT_MS = 2_000;

/** Runs `hook` whenever `gauge` is scraped; returns a function that stops it. */
export function onScrape(gauge: Gauge, hook: ScrapeHook): () => void {
  const name = (gauge as unknown as { name: string }).name;
  const hooks = scrapeHooks.get(name) ?? new Set<ScrapeHook>();
  scrapeHooks.set(name, hooks);
  hooks.add(hook);
  return () => void hooks.delete(hook);
}

/** A gauge's `collect`: starts from nothing, so a source that fails or has gone leaves no stale series. */
async function collectFromHooks(this: Gauge): Promise<void> {
  this.reset();
  const hooks = [...(scrapeHooks.get((this as unknown as { name: string }).name) ?? [])];
  await Promise.all(hooks.map((hook) => within(hook(), SCRAPE_HOOK_TIMEOUT_MS).catch(() => undefined)));
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const JOB_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** A handled request-reply call, by catalogue subject and outcome (`ok` or the error code answered). */
export const rpcServerDuration = new Histogram({
  name: 'cairn_rpc_server_duration_seconds',
  help: 'Time a service spent answering a request, by subject and outcome (ok or the error code)',
  labelNames: ['subject', 'outcome'],
  buckets: LATENCY_BUCKETS,
  registers: [platformMetrics],
});

/** A call made with RpcClient, by catalogue subject and outcome (`ok` or the error code it failed with). */
export const rpcClientDuration = new Histogram({
  name: 'cairn_rpc_client_duration_seconds',
  help: 'Time a caller waited for a reply, by subject and outcome (ok or the error code)',
  labelNames: ['subject', 'outcome'],
  buckets: LATENCY_BUCKETS,
  registers: [platformMetrics],
});

/** BullMQ jobs by queue and state, read from Redis when scraped (see queue-metrics.ts). */
export const queueJobs = new Gauge({
  name: 'cairn_queue_jobs',
  help: 'BullMQ jobs by queue and state (wait, active, delayed, prioritized, failed), read at scrape time',
  labelNames: ['queue', 'state'],
  registers: [platformMetrics],
  collect: collectFromHooks,
});

/** How long jobs ran in this process's workers, by queue and outcome (completed, failed). */
export const queueJobDuration = new Histogram({
  name: 'cairn_queue_job_duration_seconds',
  help: 'Time a BullMQ job ran in a worker, by queue and outcome (completed or failed)',
  labelNames: ['queue', 'outcome'],
  buckets: JOB_BUCKETS,
  registers: [platformMetrics],
});

/** Age of the oldest committed outbox row not yet published (0 when none waits), read when scraped. */
export const outboxLag = new Gauge({
  name: 'cairn_outbox_oldest_unpublished_age_seconds',
  help: 'Age of the oldest outbox event waiting to be published (0: none waits), by Postgres schema',
  labelNames: ['schema'],
  registers: [platformMetrics],
  collect: collectFromHooks,
});

/** JetStream messages not yet delivered to a durable consumer (`num_pending`), read when scraped. */
export const consumerPending = new Gauge({
  name: 'cairn_jetstream_consumer_pending',
  help: 'JetStream messages a durable consumer has not been delivered yet (num_pending), by consumer',
  labelNames: ['consumer'],
  registers: [platformMetrics],
  collect: collectFromHooks,
});

/** Outcome of each recorded webhook delivery attempt: `delivered`, `retrying` or `failed`. */
export const webhookDeliveries = new Counter({
  name: 'cairn_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome (delivered, retrying: a transient failure to be retried, failed: given up)',
  labelNames: ['outcome'],
  registers: [platformMetrics],
});

/** Merge checks run and reported by the worker, by the state they found (jobs for gone or moved pulls are not checks). */
export const mergeChecks = new Counter({
  name: 'cairn_merge_checks_total',
  help: 'Merge checks run, by result (mergeable, conflict, error)',
  labelNames: ['result'],
  registers: [platformMetrics],
});

/** git processes running now in this process. */
export const gitProcessesRunning = new Gauge({
  name: 'cairn_git_processes_running',
  help: 'git processes running now',
  registers: [platformMetrics],
});

/** git processes started, by subcommand (a fixed set: Cairn's code names them). */
export const gitProcessesSpawned = new Counter({
  name: 'cairn_git_processes_spawned_total',
  help: 'git processes started, by subcommand',
  labelNames: ['subcommand'],
  registers: [platformMetrics],
});

/** How git processes ended. */
export type GitProcessOutcome = 'ok' | 'exit_code' | 'killed' | 'spawn_error';
export const gitProcessesFinished = new Counter({
  name: 'cairn_git_processes_finished_total',
  help: 'git processes ended, by outcome (ok: exit 0, exit_code: another code, killed: by a signal, spawn_error)',
  labelNames: ['outcome'],
  registers: [platformMetrics],
});

/** The readiness of the last `/readyz` answer, per check (1 answered, 0 not). */
export const readinessCheck = new Gauge({
  name: 'cairn_readiness_check',
  help: 'Result of each readiness check at the last /readyz (1: it answered, 0: it did not)',
  labelNames: ['check'],
  registers: [platformMetrics],
});

/**
 * The gateway's HTTP metrics, in a registry of their own: the gateway's public `/metrics` (Gitea's `[metrics]` rules)
 * serves this one, its ops endpoint serves it after the platform's.
 */
export const gatewayHttpMetrics = new Registry();

/** HTTP requests by method, route pattern (never the raw URL) and status. */
export const httpRequests = new Counter({
  name: 'cairn_http_requests_total',
  help: 'HTTP requests by method, route pattern and status',
  labelNames: ['method', 'route', 'status'],
  registers: [gatewayHttpMetrics],
});

export const httpRequestDuration = new Histogram({
  name: 'cairn_http_request_duration_seconds',
  help: 'HTTP request duration by method and route pattern',
  labelNames: ['method', 'route'],
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
  registers: [gatewayHttpMetrics],
});
