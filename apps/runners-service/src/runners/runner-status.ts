/** The liveness windows of `[actions]` (runners-settings.ts: RUNNER_OFFLINE_TIME, RUNNER_IDLE_TIME). */
export interface LivenessWindows {
  runnerOfflineTimeMs: number;
  runnerIdleTimeMs: number;
}

/** A runner's state as Gitea derives it from its heartbeats: `offline`, busy (`active`) or `idle`. */
export type RunnerState = 'offline' | 'active' | 'idle';

/**
 * The one rule for a runner's state: online while its last request (`last_online`) is within the offline time; busy
 * (`active`) while online and its last task report (`last_active`) is within the idle time.
 */
export function runnerState(
  runner: { lastOnline: Date | null; lastActive: Date | null },
  now: number,
  windows: LivenessWindows,
): RunnerState {
  if (!runner.lastOnline || now - runner.lastOnline.getTime() >= windows.runnerOfflineTimeMs) return 'offline';
  if (runner.lastActive && now - runner.lastActive.getTime() < windows.runnerIdleTimeMs) return 'active';
  return 'idle';
}
