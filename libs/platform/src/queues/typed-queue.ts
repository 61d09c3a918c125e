import { QueueJobNames, type QueueJobData, type QueueJobName, type QueueName } from '@cairn/contracts';
import { Queue, Worker, type Processor, type QueueOptions, type WorkerOptions } from 'bullmq';
import { recordDeadLetter } from '../metrics/dead-letters.js';
import { watchQueueDepth, watchWorker } from './queue-metrics.js';

/** A queue of `QueueContract`: `add` takes only that queue's job name and job data. */
export type TypedQueue<Q extends QueueName> = Queue<QueueJobData<Q>, unknown, QueueJobName<Q>>;

/** A worker of `QueueContract`: its jobs carry that queue's job name and job data. */
export type TypedWorker<Q extends QueueName, R = unknown> = Worker<QueueJobData<Q>, R, QueueJobName<Q>>;

/** Opens producer side of queue `name`; job name and data types come from `QueueContract` (@cairn/contracts). */
export function createQueue<Q extends QueueName>(name: Q, options: QueueOptions): TypedQueue<Q> {
  const queue: TypedQueue<Q> = new Queue(name, options);
  watchQueueDepth(name, queue);
  return queue;
}

/**
 * Starts a worker of queue `name`; the processor sees that queue's job name and data types. Jobs are retried up
 * to their `attempts` (every producer sets them); a job that failed its last attempt is a dead letter: logged and
 * counted (`cairn_dead_letters_total{kind="job"}`) here, and kept in BullMQ's failed set for inspection.
 */
export function createWorker<Q extends QueueName, R>(
  name: Q,
  processor: Processor<QueueJobData<Q>, R, QueueJobName<Q>>,
  options: WorkerOptions,
): TypedWorker<Q, R> {
  const worker: TypedWorker<Q, R> = new Worker(name, processor, options);
  watchWorker(name, worker, options);
  worker.on('failed', (job, err) => {
    if (job && isFinalFailure(job.attemptsMade, job.opts.attempts)) {
      recordDeadLetter('job', name, `job ${job.id ?? '?'} after ${job.attemptsMade} attempt(s)`, err.message);
    }
  });
  return worker;
}

/** True when a job that failed `attemptsMade` times will not be tried again (`attempts` unset means one). */
export function isFinalFailure(attemptsMade: number, attempts: number | undefined): boolean {
  return attemptsMade >= Math.max(attempts ?? 1, 1);
}

/** The job name of queue `name` (one kind of job per queue). */
export function jobNameOf<Q extends QueueName>(name: Q): QueueJobName<Q> {
  return QueueJobNames[name];
}
