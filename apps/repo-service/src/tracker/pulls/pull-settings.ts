import { loadSettings, mergeCheckTimeoutSetting, parsers, type SettingsOf } from '@cairn/platform';

/** Gitea's `[repository.pull-request]`; merge-check-worker reads the same section (`CHECK_TIMEOUT`). */
export const pullSettingsSpec = {
  /** After a base moves, pulls inactive this many days are checked only when viewed (0: all wait; negative: none). */
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
