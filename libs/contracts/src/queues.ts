/**
 * BullMQ queue names. DO NOT CHANGE THE VALUES once shipped: jobs already in Redis are found by them.
 * (BullMQ forbids `:` in custom job ids; queue names here use `-`.)
 */
export const Queues = {
  /**
   * hooks-service: the first attempts of an event's deliveries in groups (`e<eventId>-g<n>`, data `{ deliveryIds }`),
   * every other attempt one job (`d<deliveryId>-a<attempt>`, data `{ deliveryId }`).
   */
  webhookDelivery: 'hooks-webhook-delivery',
  /**
   * Queued by repo-service only (its `MergeCheckQueue`), run by merge-check-worker: one mergeability check per pull
   * request and commit pair, data `MergeCheckJobData`.
   */
  mergeCheck: 'merge-check',
} as const;
