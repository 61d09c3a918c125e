import { Queue, type Job, type WorkerOptions } from 'bullmq';
import { onScrape, queueJobDuration, queueJobs } from '../metrics/cairn-metrics.js';
import { registerReadinessCheck } from '../ops/readiness.js';

interface WatchedWorker extends HasRedis {
  on(event: 'completed' | 'failed', listener: (job: Job | undefined) => void): unknown;
  once(event: 'closed', listener: () => void): unknown;
  isRunning(): boolean;
}

interface HasRedis {
  getBackend(): unknown;
}

/** A job in any other state is done with. */
const DEPTH_STATES = ['wait', 'active', 'delayed', 'prioritized', 'failed'] as const;

/** One source per queue name, whichever opened it first. */
const watched = new Set<string>();

export function watchQueueDepth(name: string, queue: Queue): void {
  watchRedis(name, queue);
  if (watched.has(name)) return;
  watched.add(name);
  const stop = onScrape(queueJobs, async () => {
    // BullMQ's Queue announces no close: a closed queue drops out at the next scrape.
    if (queue.closing) {
      stop();
      watched.delete(name);
      return;
    }
    const counts = await queue.getJobCounts(...DEPTH_STATES);
    for (const state of DEPTH_STATES) queueJobs.set({ queue: name, state }, counts[state] ?? 0);
  });
}

/** Readiness requires it running with Redis answering; its queue's depth is what a worker autoscaler reads. */
export function watchWorker(name: string, worker: WatchedWorker, options: WorkerOptions): void {
  const observe = (job: Job | undefined, outcome: 'completed' | 'failed') => {
    if (job?.processedOn && job.finishedOn) {
      queueJobDuration.observe({ queue: name, outcome }, (job.finishedOn - job.processedOn) / 1000);
    }
  };
  worker.on('completed', (job) => observe(job, 'completed'));
  worker.on('failed', (job) => observe(job, 'failed'));
  const stopReady = registerReadinessCheck(`queue-worker:${name}`, async () => worker.isRunning() && (await ping(worker)));
  let depth: Queue | undefined;
  if (!watched.has(name)) {
    // A plain connection (not shared with the worker); a command fails rather than waits forever while Redis is down.
    const connection = isOptionsObject(options.connection)
      ? { ...options.connection, maxRetriesPerRequest: 1 }
      : options.connection;
    depth = new Queue(name, { connection, prefix: options.prefix });
    depth.on('error', () => undefined);
    watchQueueDepth(name, depth);
  }
  worker.once('closed', () => {
    stopReady();
    void depth?.close().catch(() => undefined);
  });
}

function isOptionsObject(c: WorkerOptions['connection']): c is Extract<WorkerOptions['connection'], { url?: string }> {
  return typeof c === 'object' && c !== null && !('status' in c);
}

/** A closed queue: not ready, the app is stopping. */
function watchRedis(name: string, queue: Queue): void {
  registerReadinessCheck(`redis:${name}`, async () => !queue.closing && (await ping(queue)));
}

/** A round trip on the queue's or worker's own (non-blocking) Redis connection. */
async function ping(owner: HasRedis): Promise<boolean> {
  const backend = owner.getBackend() as { client: Promise<{ ping(): Promise<string> }> };
  return (await (await backend.client).ping()) === 'PONG';
}
