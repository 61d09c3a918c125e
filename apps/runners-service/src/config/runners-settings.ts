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
