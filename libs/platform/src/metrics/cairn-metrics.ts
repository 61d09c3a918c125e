import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { platformMetrics } from './dead-letters.js';
import { within } from '../common/within.js';

/** The one home of Cairn's metric names (deploy/observability may use only these: a test checks). Labels are bounded sets, never ids. */

type ScrapeHook = () => Promise<void>;
const scrapeHooks = new Map<string, Set<ScrapeHook>>();
/** A dependency that is down leaves its series out. */
const SCRAPE_HOOK_TIMEOUT_MS = 2_000;

export function onScrape(gauge: Gauge, hook: ScrapeHook): () => void {
  const name = (gauge as unknown as { name: string }).name;
  const hooks = scrapeHooks.get(name) ?? new Set<ScrapeHook>();
  scrapeHooks.set(name, hooks);
  hooks.add(hook);
  return () => void hooks.delete(hook);
}

/** Starts from nothing, so a source that fails or has gone leaves no stale series. */
async function collectFromHooks(this: Gauge): Promise<void> {
  this.reset();
  const hooks = [...(scrapeHooks.get((this as unknown as { name: string }).name) ?? [])];
  await Promise.all(hooks.map((hook) => within(hook(), SCRAPE_HOOK_TIMEOUT_MS).catch(() => undefined)));
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const JOB_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

export const rpcServerDuration = new Histogram({
  name: 'cairn_rpc_server_duration_seconds',
  help: 'Time a service spent answering a request, by subject and outcome (ok or the error code)',
  labelNames: ['subject', 'outcome'],
  buckets: LATENCY_BUCKETS,
  registers: [platformMetrics],
});

export const rpcClientDuration = new Histogram({
  name: 'cairn_rpc_client_duration_seconds',
  help: 'Time a caller waited for a reply, by subject and outcome (ok or the error code)',
  labelNames: ['subject', 'outcome'],
  buckets: LATENCY_BUCKETS,
  registers: [platformMetrics],
});

export const queueJobs = new Gauge({
  name: 'cairn_queue_jobs',
  help: 'BullMQ jobs by queue and state (wait, active, delayed, prioritized, failed), read at scrape time',
  labelNames: ['queue', 'state'],
  registers: [platformMetrics],
  collect: collectFromHooks,
});

export const queueJobDuration = new Histogram({
  name: 'cairn_queue_job_duration_seconds',
  help: 'Time a BullMQ job ran in a worker, by queue and outcome (completed or failed)',
  labelNames: ['queue', 'outcome'],
  buckets: JOB_BUCKETS,
  registers: [platformMetrics],
});

export const outboxLag = new Gauge({
  name: 'cairn_outbox_oldest_unpublished_age_seconds',
  help: 'Age of the oldest outbox event waiting to be published (0: none waits), by Postgres schema',
  labelNames: ['schema'],
  registers: [platformMetrics],
  collect: collectFromHooks,
});

export const consumerPending = new Gauge({
  name: 'cairn_jetstream_consumer_pending',
  help: 'JetStream messages a durable consumer has not been delivered yet (num_pending), by consumer',
  labelNames: ['consumer'],
  registers: [platformMetrics],
  collect: collectFromHooks,
});

export const webhookDeliveries = new Counter({
  name: 'cairn_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome (delivered, retrying: a transient failure to be retried, failed: given up)',
  labelNames: ['outcome'],
  registers: [platformMetrics],
});

/** Jobs for gone or moved pulls are not checks. */
export const mergeChecks = new Counter({
  name: 'cairn_merge_checks_total',
  help: 'Merge checks run, by result (mergeable, conflict, error)',
  labelNames: ['result'],
  registers: [platformMetrics],
});

export const gitProcessesRunning = new Gauge({
  name: 'cairn_git_processes_running',
  help: 'git processes running now',
  registers: [platformMetrics],
});

/** A fixed set: Cairn's code names them. */
export const gitProcessesSpawned = new Counter({
  name: 'cairn_git_processes_spawned_total',
  help: 'git processes started, by subcommand',
  labelNames: ['subcommand'],
  registers: [platformMetrics],
});

export type GitProcessOutcome = 'ok' | 'exit_code' | 'killed' | 'spawn_error';
export const gitProcessesFinished = new Counter({
  name: 'cairn_git_processes_finished_total',
  help: 'git processes ended, by outcome (ok: exit 0, exit_code: another code, killed: by a signal, spawn_error)',
  labelNames: ['outcome'],
  registers: [platformMetrics],
});

export const readinessCheck = new Gauge({
  name: 'cairn_readiness_check',
  help: 'Result of each readiness check at the last /readyz (1: it answered, 0: it did not)',
  labelNames: ['check'],
  registers: [platformMetrics],
});

/** Gitea's `[metrics]` rules apply to the gateway's public `/metrics`, which serves this registry. */
export const gatewayHttpMetrics = new Registry();

/** Route pattern, never the raw URL. */
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
