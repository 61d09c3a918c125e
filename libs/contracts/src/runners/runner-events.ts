/** Events published by runners-service (for auditing): payload {@link RunnerEventData}. */
export const RunnersEvents = {
  /** A runner registered over the runner protocol with a registration token of its scope. */
  runnerRegistered: 'runners.evt.runner.registered',
  /** A runner was deleted (through the API, or an ephemeral runner after its one task). */
  runnerDeleted: 'runners.evt.runner.deleted',
} as const;

/** The body of {@link RunnersEvents}: the runner and its scope (Gitea's (owner_id, repo_id); 0 = none). */
export interface RunnerEventData {
  id: number;
  uuid: string;
  name: string;
  ownerId: number;
  repoId: number;
  ephemeral: boolean;
}
