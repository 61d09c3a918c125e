import type { MergeCheckJobData } from './repo/pulls-merge-check.js';

/** DO NOT CHANGE THE VALUES once shipped: jobs already in Redis are found by them. BullMQ forbids `:` in job ids. */
export const Queues = {
  /** First attempts in groups (`e<eventId>-g<n>`), every other attempt one job (`d<deliveryId>-a<attempt>`). */
  webhookDelivery: 'hooks-webhook-delivery',
  /** Queued by repo-service only, run by merge-check-worker: one check per pull request and commit pair. */
  mergeCheck: 'merge-check',
} as const;

export type QueueName = (typeof Queues)[keyof typeof Queues];

/** Ids only: the worker reloads everything. */
export type DeliveryJobData = { deliveryId: number } | { deliveryIds: number[] };

/** DO NOT CHANGE THE VALUES once shipped either: jobs waiting in Redis carry them. */
export const QueueJobNames = {
  [Queues.webhookDelivery]: 'deliver',
  [Queues.mergeCheck]: 'check',
} as const satisfies Record<QueueName, string>;

export interface QueueContract {
  [Queues.webhookDelivery]: { name: (typeof QueueJobNames)[typeof Queues.webhookDelivery]; data: DeliveryJobData };
  [Queues.mergeCheck]: { name: (typeof QueueJobNames)[typeof Queues.mergeCheck]; data: MergeCheckJobData };
}

export type QueueJobName<Q extends QueueName> = QueueContract[Q]['name'];
export type QueueJobData<Q extends QueueName> = QueueContract[Q]['data'];
