import { loadSettings, parsers, type SettingsOf } from '@cairn/platform';

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
  /**
   * `[repository.pull-request] CHECK_TIMEOUT`: the longest a mergeability check (and each `merge-tree` of a merge or
   * branch update) may run before its git process is killed and the check is recorded as `error`.
   */
  checkTimeoutMs: {
    section: 'repository.pull-request',
    key: 'CHECK_TIMEOUT',
    default: 60_000,
    parse: (raw: string) => {
      const ms = parsers.durationMs(raw);
      if (ms < 100 || ms > 3_600_000) throw new Error('expected a duration between 100ms and 1h');
      return ms;
    },
  },
};

export type PullSettings = SettingsOf<typeof pullSettingsSpec>;
export const PULL_SETTINGS = Symbol('PULL_SETTINGS');

export function loadPullSettings(env: NodeJS.ProcessEnv = process.env): PullSettings {
  return loadSettings(pullSettingsSpec, env);
}
