import type { MergeCheckJobData } from './repo/pulls-merge-check.js';

/**
 * BullMQ queue names. DO NOT CHANGE THE VALUES once shipped: jobs already in Redis are found by them.
 * (BullMQ forbids `:` in custom job ids; queue names here use `-`.) Each queue's job name and job data are in
 * {@link QueueContract}; open queues and workers with `createQueue` / `createWorker` (@cairn/platform).
 */
export const Queues = {
  /**
   * hooks-service: the first attempts of an event's deliveries in groups (`e<eventId>-g<n>`, data
   * `{ deliveryIds }`), every other attempt one job (`d<deliveryId>-a<attempt>`, data `{ deliveryId }`).
   */
  webhookDelivery: 'hooks-webhook-delivery',
  /**
   * Queued by repo-service only (its `MergeCheckQueue`), run by merge-check-worker: one mergeability check per pull
   * request and commit pair, data `MergeCheckJobData`.
   */
  mergeCheck: 'merge-check',
} as const;

/** A queue name of {@link Queues}. */
export type QueueName = (typeof Queues)[keyof typeof Queues];

/**
 * The data of a webhook delivery job: ids only, the worker reloads everything. A job is either one attempt of one
 * delivery or the first attempts of a group of an event's deliveries.
 */
export type DeliveryJobData = { deliveryId: number } | { deliveryIds: number[] };

/**
 * The job name of every queue (one kind of job per queue). DO NOT CHANGE THE VALUES once shipped either: jobs
 * waiting in Redis carry them.
 */
export const QueueJobNames = {
  [Queues.webhookDelivery]: 'deliver',
  [Queues.mergeCheck]: 'check',
} as const satisfies Record<QueueName, string>;

/** What producers put on each queue and what its worker reads: job name and job data. */
export interface QueueContract {
  [Queues.webhookDelivery]: { name: (typeof QueueJobNames)[typeof Queues.webhookDelivery]; data: DeliveryJobData };
  [Queues.mergeCheck]: { name: (typeof QueueJobNames)[typeof Queues.mergeCheck]; data: MergeCheckJobData };
}

/** The job name of queue `Q`. */
export type QueueJobName<Q extends QueueName> = QueueContract[Q]['name'];
/** The job data of queue `Q`. */
export type QueueJobData<Q extends QueueName> = QueueContract[Q]['data'];
