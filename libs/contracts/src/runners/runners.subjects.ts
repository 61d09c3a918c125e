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

  /**
   * The scope's registration token — the newest if still active, else a new one (deactivating the older ones); with
   * `reset`, always a new one: {@link RegistrationTokenRequest} → {@link RegistrationTokenDto}.
   */
  registrationToken: 'runners.token.get',
  /** The runners of a scope (admin: every runner): {@link RunnerListRequest} → {@link ActionRunnersResponseDto}. */
  runnerList: 'runners.runner.list',
  /** One runner of the scope: {@link RunnerRequest} → {@link ActionRunnerDto}. */
  runnerGet: 'runners.runner.get',
  /** Soft-delete a runner of the scope: {@link RunnerRequest} → `{}`. */
  runnerDelete: 'runners.runner.delete',
  /** A runner's labels: {@link RunnerRequest} → {@link RunnerLabelsDto}. */
  runnerLabels: 'runners.runner.labels.list',
  /** Add labels (those it has are kept once): {@link RunnerLabelsChangeRequest} → {@link RunnerLabelsDto}. */
  runnerLabelsAdd: 'runners.runner.labels.add',
  /** Replace all labels: {@link RunnerLabelsChangeRequest} → {@link RunnerLabelsDto}. */
  runnerLabelsSet: 'runners.runner.labels.set',
  /** Remove all labels: {@link RunnerRequest} → {@link RunnerLabelsDto}. */
  runnerLabelsClear: 'runners.runner.labels.clear',
  /** Remove one label (404 when the runner has no such label): {@link RunnerLabelRemoveRequest} → {@link RunnerLabelsDto}. */
  runnerLabelRemove: 'runners.runner.labels.remove',
} as const;
