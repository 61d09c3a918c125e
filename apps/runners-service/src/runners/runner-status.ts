export interface LivenessWindows {
  runnerOfflineTimeMs: number;
  runnerIdleTimeMs: number;
}

export type RunnerState = 'offline' | 'active' | 'idle';

/** Gitea's rule: online within the offline time; busy (`active`) when it also reported a task within the idle time. */
export function runnerState(
  runner: { lastOnline: Date | null; lastActive: Date | null },
  now: number,
  windows: LivenessWindows,
): RunnerState {
  if (!runner.lastOnline || now - runner.lastOnline.getTime() >= windows.runnerOfflineTimeMs) return 'offline';
  if (runner.lastActive && now - runner.lastActive.getTime() < windows.runnerIdleTimeMs) return 'active';
  return 'idle';
}
