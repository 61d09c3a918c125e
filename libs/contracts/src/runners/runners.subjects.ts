/** Served by runners-service (queue group `runners-service`). */
export const RunnersSubjects = {
  /** Health check. */
  health: 'runners.health.check',

  /** The variables of a scope, by name. */
  variableList: 'runners.variable.list',
  /** One variable of a scope by name (case-insensitive). */
  variableGet: 'runners.variable.get',
  /** Create a variable (409 when the name exists in the scope). */
  variableCreate: 'runners.variable.create',
  /** Change a variable's value and description, and rename it with `body.name`. */
  variableUpdate: 'runners.variable.update',
  /** Delete a variable. */
  variableDelete: 'runners.variable.delete',

  /** The secrets of a scope (names and descriptions, never values). */
  secretList: 'runners.secret.list',
  /** Create or replace a secret (`created` tells 201 from 204). */
  secretPut: 'runners.secret.put',
  /** Delete a secret. */
  secretDelete: 'runners.secret.delete',

  /** The newest active registration token, else a new one (deactivating the older); with `reset`, always a new one. */
  registrationToken: 'runners.token.get',
  /** The runners of a scope (admin: every runner). */
  runnerList: 'runners.runner.list',
  /** One runner of the scope. */
  runnerGet: 'runners.runner.get',
  /** Soft-delete a runner of the scope. */
  runnerDelete: 'runners.runner.delete',
  /** A runner's labels. */
  runnerLabels: 'runners.runner.labels.list',
  /** Add labels (those it has are kept once). */
  runnerLabelsAdd: 'runners.runner.labels.add',
  /** Replace all labels. */
  runnerLabelsSet: 'runners.runner.labels.set',
  /** Remove all labels. */
  runnerLabelsClear: 'runners.runner.labels.clear',
  /** Remove one label (404 when the runner has no such label). */
  runnerLabelRemove: 'runners.runner.labels.remove',
} as const;
