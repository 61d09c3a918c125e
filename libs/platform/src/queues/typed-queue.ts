import { QueueJobNames, type QueueJobData, type QueueJobName, type QueueName } from '@cairn/contracts';
import { Queue, Worker, type Processor, type QueueOptions, type WorkerOptions } from 'bullmq';

/** A queue of `QueueContract`: `add` takes only that queue's job name and job data. */
export type TypedQueue<Q extends QueueName> = Queue<QueueJobData<Q>, unknown, QueueJobName<Q>>;

/** A worker of `QueueContract`: its jobs carry that queue's job name and job data. */
export type TypedWorker<Q extends QueueName, R = unknown> = Worker<QueueJobData<Q>, R, QueueJobName<Q>>;

/** Opens producer side of queue `name`; job name and data types come from `QueueContract` (@cairn/contracts). */
export function createQueue<Q extends QueueName>(name: Q, options: QueueOptions): TypedQueue<Q> {
  return new Queue(name, options);
}

/** Starts a worker of queue `name`; the processor sees that queue's job name and data types. */
export function createWorker<Q extends QueueName, R>(
  name: Q,
  processor: Processor<QueueJobData<Q>, R, QueueJobName<Q>>,
  options: WorkerOptions,
): TypedWorker<Q, R> {
  return new Worker(name, processor, options);
}

/** The job name of queue `name` (one kind of job per queue). */
export function jobNameOf<Q extends QueueName>(name: Q): QueueJobName<Q> {
  return QueueJobNames[name];
}
