/** Published by runners-service through its outbox, for auditing. */
export const RunnersEvents = {
  /** A runner registered over the runner protocol (`Register`). */
  runnerRegistered: 'runners.evt.runner.registered',
  /** A runner was deleted (soft delete): through the API, or an ephemeral runner after its one task. */
  runnerDeleted: 'runners.evt.runner.deleted',
} as const;

/** Scope as Gitea's (owner_id, repo_id): see prisma/runners/schema.prisma. */
export interface RunnerEventRunner {
  id: number;
  uuid: string;
  name: string;
  ownerId: number;
  repoId: number;
  ephemeral: boolean;
}

export interface RunnerEventData {
  runner: RunnerEventRunner;
  /** Null for registrations: a runner registers with a token, not as a user. */
  actorId: number | null;
}

/** The credential hash never leaves the service. */
export function runnerEventData(runner: RunnerEventRunner, actorId: number | null): RunnerEventData {
  const { id, uuid, name, ownerId, repoId, ephemeral } = runner;
  return { runner: { id, uuid, name, ownerId, repoId, ephemeral }, actorId };
}
