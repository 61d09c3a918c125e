/**
 * BullMQ queue names. DO NOT CHANGE THE VALUES once shipped: jobs already in Redis are found by them.
 * (BullMQ forbids `:` in custom job ids; queue names here use `-`.)
 */
export const Queues = {
  /** hooks-service: one job per webhook delivery attempt (`d<deliveryId>-a<attempt>`), data `{ deliveryId }`. */
  webhookDelivery: 'hooks-webhook-delivery',
  /** merge-check-worker: one mergeability check per pull request and commit pair, data `MergeCheckJobData`. */
  mergeCheck: 'merge-check',
} as const;
