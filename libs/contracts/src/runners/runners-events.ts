/** Events published by runners-service (through its outbox) on the `CAIRN_EVENTS` stream, for auditing. */
export const RunnersEvents = {
  /** A runner registered over the runner protocol (`Register`). */
  runnerRegistered: 'runners.evt.runner.registered',
  /** A runner was deleted (soft delete): through the API, or an ephemeral runner after its one task. */
  runnerDeleted: 'runners.evt.runner.deleted',
} as const;

/** A runner as its events carry it. Scope as Gitea's (owner_id, repo_id): see prisma/runners/schema.prisma. */
export interface RunnerEventRunner {
  id: number;
  uuid: string;
  name: string;
  ownerId: number;
  repoId: number;
  ephemeral: boolean;
}

/** `runners.evt.runner.registered` / `deleted`. */
export interface RunnerEventData {
  runner: RunnerEventRunner;
  /** The user who deleted it (null for registrations: a runner registers with a token, not as a user). */
  actorId: number | null;
}

/** The event body for a runner (only the fields events carry; the credential hash never leaves the service). */
export function runnerEventData(runner: RunnerEventRunner, actorId: number | null): RunnerEventData {
  const { id, uuid, name, ownerId, repoId, ephemeral } = runner;
  return { runner: { id, uuid, name, ownerId, repoId, ephemeral }, actorId };
}
