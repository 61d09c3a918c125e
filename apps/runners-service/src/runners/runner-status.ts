/** Gitea's `RunnerIdleTime`: a runner that reported work on a task this recently is busy (`active`). */
export const RUNNER_IDLE_TIME_MS = 10_000;

/** A runner's state as Gitea derives it from its heartbeats: `offline`, busy (`active`) or `idle`. */
export type RunnerLiveness = 'offline' | 'active' | 'idle';

export function runnerLiveness(
  runner: { lastOnline: Date | null; lastActive: Date | null },
  now: number,
  offlineTimeMs: number,
): RunnerLiveness {
  if (!runner.lastOnline || now - runner.lastOnline.getTime() >= offlineTimeMs) return 'offline';
  if (runner.lastActive && now - runner.lastActive.getTime() < RUNNER_IDLE_TIME_MS) return 'active';
  return 'idle';
}
