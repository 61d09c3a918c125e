import { loadSettings, parsers, secretKeySetting, type SettingsOf } from '@cairn/platform';

/**
 * runners-service's own settings (Gitea's names where Gitea has the setting; environment `CAIRN__SECTION__KEY`
 * overrides `app.ini`). The common ones (DATABASE_URL, NATS_URL, …) come from @cairn/platform.
 */
export const runnersSettingsSpec = {
  /** Key material for sealing Actions secrets and registration tokens (AES-256-GCM, HKDF-derived). */
  secretKey: secretKeySetting,
  /**
   * A runner is `online` while its last request (`last_online`) is more recent than this; Gitea's 1 minute. The API
   * computes `status` from it, and the runner protocol throttles its `last_online` writes well below it.
   */
  runnerOfflineTimeMs: { section: 'actions', key: 'RUNNER_OFFLINE_TIME', default: 60_000, parse: positiveDuration },
  /**
   * An online runner is `busy` while it reported work on a task (UpdateTask/UpdateLog set `last_active`) more
   * recently than this; Gitea's 10 seconds ("active").
   */
  runnerIdleTimeMs: { section: 'actions', key: 'RUNNER_IDLE_TIME', default: 10_000, parse: positiveDuration },
  /**
   * How long a `FetchTask` long-poll waits for work before it answers "no task". Below act_runner's own request
   * timeout (`runner.fetch_timeout`, 5 s by default), so the runner never sees its poll time out.
   */
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
  /**
   * The longest interval between two writes of a runner's liveness (`last_online`, `last_active`) — polls in between
   * cost no database write. Never more than a quarter of `RUNNER_OFFLINE_TIME`, so a polling runner stays online.
   */
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

/** Injection token of {@link RunnersSettings}. */
export const RUNNERS_SETTINGS = Symbol('RUNNERS_SETTINGS');

export function loadRunnersSettings(): RunnersSettings {
  return loadSettings(runnersSettingsSpec);
}

/** The liveness write interval in force: the setting, capped at a quarter of the offline time. */
export function livenessWriteIntervalMs(settings: Pick<RunnersSettings, 'runnerOfflineTimeMs' | 'livenessUpdateIntervalMs'>): number {
  return Math.min(settings.livenessUpdateIntervalMs, Math.floor(settings.runnerOfflineTimeMs / 4));
}
