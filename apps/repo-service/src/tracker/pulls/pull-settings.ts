import { loadSettings, mergeCheckTimeoutSetting, parsers, type SettingsOf } from '@cairn/platform';

/**
 * repo-service's pull-request settings (Gitea's `[repository.pull-request]`), read once at start; a bad value refuses
 * start. merge-check-worker reads the same section for its own settings (`CHECK_TIMEOUT`).
 */
export const pullSettingsSpec = {
  /**
   * `[repository.pull-request] DELAY_CHECK_FOR_INACTIVE_DAYS`: after a base branch moved, pull requests whose issue
   * was not updated for this many days are not checked until someone looks (default 7; `0` delays all; `-1` — any
   * negative value — never delays).
   */
  delayCheckForInactiveDays: {
    section: 'repository.pull-request',
    key: 'DELAY_CHECK_FOR_INACTIVE_DAYS',
    default: 7,
    parse: parsers.int(-1_000_000, 1_000_000),
  },
  checkTimeoutMs: mergeCheckTimeoutSetting,
};

export type PullSettings = SettingsOf<typeof pullSettingsSpec>;
export const PULL_SETTINGS = Symbol('PULL_SETTINGS');

export function loadPullSettings(env: NodeJS.ProcessEnv = process.env): PullSettings {
  return loadSettings(pullSettingsSpec, env);
}
