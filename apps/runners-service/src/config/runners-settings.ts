import { loadSettings, parsers, secretKeySetting, type SettingsOf } from '@cairn/platform';

/** runners-service's own settings (Gitea's names where Gitea has the setting). */
export const runnersSettingsSpec = {
  /** Key material for sealing Actions secrets and registration tokens (AES-256-GCM, HKDF-derived). */
  secretKey: secretKeySetting,
  /** A runner is `online` while its last request is more recent than this (Gitea's 1 minute). */
  runnerOfflineTimeMs: { section: 'actions', key: 'RUNNER_OFFLINE_TIME', default: 60_000, parse: positiveDuration },
  /** An online runner is `busy` while it reported task work more recently than this (Gitea's 10 seconds). */
  runnerIdleTimeMs: { section: 'actions', key: 'RUNNER_IDLE_TIME', default: 10_000, parse: positiveDuration },
  /** How long a `FetchTask` long-poll waits: below act_runner's `fetch_timeout` (5 s), so its poll never times out. */
  fetchTaskWaitMs: {
    section: 'actions',
    key: 'FETCH_TASK_WAIT',
    default: 2_000,
    parse: (raw: string) => {
      const ms = parsers.durationMs(raw);
      if (ms > 60_000) throw new Error('expected at most 1m');
      return ms;
    },
  },
  /** Longest interval between two liveness writes; capped at a quarter of `RUNNER_OFFLINE_TIME`. */
  livenessUpdateIntervalMs: {
    section: 'actions',
    key: 'RUNNER_LIVENESS_UPDATE_INTERVAL',
    default: 10_000,
    parse: parsers.durationMs,
  },
  /** Address the runner-protocol endpoint binds (the gateway reaches it at `[cairn] RUNNERS_INTERNAL_URL`). */
  internalHost: { section: 'cairn', key: 'RUNNERS_INTERNAL_HOST', default: '127.0.0.1', parse: parsers.string },
};

function positiveDuration(raw: string): number {
  const ms = parsers.durationMs(raw);
  if (ms <= 0) throw new Error('expected a positive duration such as 10s or 1m');
  return ms;
}

export type RunnersSettings = SettingsOf<typeof runnersSettingsSpec>;

export const RUNNERS_SETTINGS = Symbol('RUNNERS_SETTINGS');

export function loadRunnersSettings(): RunnersSettings {
  return loadSettings(runnersSettingsSpec);
}

/** The liveness write interval in force: the setting, capped at a quarter of the offline time. */
export function livenessWriteIntervalMs(settings: Pick<RunnersSettings, 'runnerOfflineTimeMs' | 'livenessUpdateIntervalMs'>): number {
  return Math.min(settings.livenessUpdateIntervalMs, Math.floor(settings.runnerOfflineTimeMs / 4));
}
