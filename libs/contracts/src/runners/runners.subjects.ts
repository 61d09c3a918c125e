/** NATS request-reply subjects served by runners-service (queue group `runners-service`). Add new ones here. */
export const RunnersSubjects = {
  /** Health check. */
  health: 'runners.health.check',

  /** The variables of a scope, by name: {@link VariableListRequest} → `Paginated<ActionVariableDto>`. */
  variableList: 'runners.variable.list',
  /** One variable of a scope by name (case-insensitive): {@link VariableRequest} → {@link ActionVariableDto}. */
  variableGet: 'runners.variable.get',
  /** Create a variable (409 when the name exists in the scope): {@link VariableCreateRequest} → `{}`. */
  variableCreate: 'runners.variable.create',
  /** Change a variable's value and description, and rename it with `body.name`: {@link VariableUpdateRequest} → `{}`. */
  variableUpdate: 'runners.variable.update',
  /** Delete a variable: {@link VariableRequest} → `{}`. */
  variableDelete: 'runners.variable.delete',

  /** The secrets of a scope (names and descriptions, never values): {@link SecretListRequest} → `Paginated<SecretDto>`. */
  secretList: 'runners.secret.list',
  /** Create or replace a secret: {@link SecretPutRequest} → {@link SecretPutReply} (`created` tells 201 from 204). */
  secretPut: 'runners.secret.put',
  /** Delete a secret: {@link SecretRequest} → `{}`. */
  secretDelete: 'runners.secret.delete',
} as const;
