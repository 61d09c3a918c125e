/** Served by hooks-service (queue group `hooks-service`). */
export const HooksSubjects = {
  /** Health check. */
  health: 'hooks.health.check',
  /** Copy every default hook into a new repository (idempotent; `repo.evt.repository.created` completes it on failure). */
  repositoryInit: 'hooks.repository.init',

  /** List the hooks of a scope (admin: `query.type` = system|default|all). */
  webhookList: 'hooks.webhook.list',
  /** Get one hook of a scope. */
  webhookGet: 'hooks.webhook.get',
  /** Create a hook in a scope. */
  webhookCreate: 'hooks.webhook.create',
  /** Edit a hook (only the fields sent change). */
  webhookEdit: 'hooks.webhook.edit',
  /** Delete a hook and its deliveries. */
  webhookDelete: 'hooks.webhook.delete',
  /** Send a test push delivery (repository hooks). */
  webhookTest: 'hooks.webhook.test',

  /** List a hook's deliveries, newest first. */
  deliveryList: 'hooks.delivery.list',
  /** One delivery with its request, response and attempts. */
  deliveryGet: 'hooks.delivery.get',
  /** Redeliver (new attempt, same guid, `redelivery: true`). */
  deliveryRedeliver: 'hooks.delivery.redeliver',
} as const;
