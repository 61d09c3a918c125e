import { QueueJobNames, type QueueJobData, type QueueJobName, type QueueName } from '@cairn/contracts';
import { Queue, Worker, type BulkJobOptions, type JobsOptions, type Processor, type QueueOptions, type WorkerOptions } from 'bullmq';
import { recordDeadLetter } from '../metrics/dead-letters.js';
import { watchQueueDepth, watchWorker } from './queue-metrics.js';
import { SpanKind, contextFrom, inSpan } from '../tracing/trace-context.js';
import { jobTraceparent, withJobTrace } from '../tracing/job-trace.js';

/** A queue of `QueueContract`: `add` takes only that queue's job name and job data. */
export type TypedQueue<Q extends QueueName> = Queue<QueueJobData<Q>, unknown, QueueJobName<Q>>;

export type TypedWorker<Q extends QueueName, R = unknown> = Worker<QueueJobData<Q>, R, QueueJobName<Q>>;

class TracedQueue extends Queue {
  override add(name: string, data: unknown, opts?: JobsOptions) {
    return super.add(name, withJobTrace(data), opts);
  }

  override addBulk(jobs: { name: string; data: unknown; opts?: BulkJobOptions }[]) {
    return super.addBulk(jobs.map((job) => ({ ...job, data: withJobTrace(job.data) })));
  }
}

/** Jobs added while tracing carry the current trace, which the worker's span continues. */
export function createQueue<Q extends QueueName>(name: Q, options: QueueOptions): TypedQueue<Q> {
  // The subclass only adds a field to the data: the queue's contract types stay those of `TypedQueue<Q>`.
  const queue = new TracedQueue(name, options) as unknown as TypedQueue<Q>;
  watchQueueDepth(name, queue);
  return queue;
}

/** A job failing its last attempt is a dead letter: logged, counted, kept in BullMQ's failed set. */
export function createWorker<Q extends QueueName, R>(
  name: Q,
  processor: Processor<QueueJobData<Q>, R, QueueJobName<Q>>,
  options: WorkerOptions,
): TypedWorker<Q, R> {
  // A span per job run, continuing the trace of whoever queued it.
  const traced: typeof processor = (job, token, signal) =>
    inSpan(
      `job ${name}`,
      {
        kind: SpanKind.CONSUMER,
        parent: contextFrom(jobTraceparent(job.data)),
        attributes: { 'messaging.system': 'bullmq', 'messaging.destination.name': name, 'messaging.message.id': job.id ?? '' },
      },
      () => processor(job, token, signal),
    );
  const worker: TypedWorker<Q, R> = new Worker(name, traced, options);
  watchWorker(name, worker, options);
  worker.on('failed', (job, err) => {
    if (job && isFinalFailure(job.attemptsMade, job.opts.attempts)) {
      recordDeadLetter('job', name, `job ${job.id ?? '?'} after ${job.attemptsMade} attempt(s)`, err.message);
    }
  });
  return worker;
}

/** `attempts` unset means one. */
export function isFinalFailure(attemptsMade: number, attempts: number | undefined): boolean {
  return attemptsMade >= Math.max(attempts ?? 1, 1);
}

export function jobNameOf<Q extends QueueName>(name: Q): QueueJobName<Q> {
  return QueueJobNames[name];
}
