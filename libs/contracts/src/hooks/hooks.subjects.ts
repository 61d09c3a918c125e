/** NATS request-reply subjects served by hooks-service (queue group `hooks-service`). Add new ones here. */
export const HooksSubjects = {
  /** Health check. */
  health: 'hooks.health.check',
  /**
   * Copy every default hook into a newly created repository (idempotent per repository and default hook).
   * repo-service calls it before answering 201; the `repo.evt.repository.created` event completes it if this fails.
   * Request `{ repository: RepoEventRepository }`, reply `{ copied: number }`.
   */
  repositoryInit: 'hooks.repository.init',

  /** List the hooks of a scope (admin: `query.type` = system|default|all): {@link HookListRequest} → `Paginated<HookDto>`. */
  webhookList: 'hooks.webhook.list',
  /** Get one hook of a scope: {@link HookRequest} → {@link HookDto}. */
  webhookGet: 'hooks.webhook.get',
  /** Create a hook in a scope: {@link HookCreateRequest} → {@link HookDto}. */
  webhookCreate: 'hooks.webhook.create',
  /** Edit a hook (only the fields sent change): {@link HookEditRequest} → {@link HookDto}. */
  webhookEdit: 'hooks.webhook.edit',
  /** Delete a hook and its deliveries: {@link HookRequest} → `{}`. */
  webhookDelete: 'hooks.webhook.delete',
  /** Send a test push delivery (repository hooks): {@link HookTestRequest} → {@link HookDeliveryDto}. */
  webhookTest: 'hooks.webhook.test',

  /** List a hook's deliveries, newest first: {@link HookDeliveryListRequest} → `Paginated<HookDeliveryDto>`. */
  deliveryList: 'hooks.delivery.list',
  /** One delivery with its request, response and attempts: {@link HookDeliveryRequest} → {@link HookDeliveryDetailDto}. */
  deliveryGet: 'hooks.delivery.get',
  /** Redeliver (new attempt, same guid, `redelivery: true`): {@link HookDeliveryRequest} → {@link HookDeliveryDto}. */
  deliveryRedeliver: 'hooks.delivery.redeliver',
} as const;
