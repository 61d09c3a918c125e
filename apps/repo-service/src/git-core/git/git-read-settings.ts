import { loadSettings, parsers, type SettingsOf } from '@cairn/platform';

/** Settings of the git read APIs (Gitea's names where Gitea has them). */
export const gitReadSettingsSpec = {
  /** `[git] COMMITS_RANGE_SIZE`: the largest commit page, and the page size of path-filtered commit lists. */
  commitsRangeSize: { section: 'git', key: 'COMMITS_RANGE_SIZE', default: 50, parse: parsers.int(1, 10_000) },
  /** Most persistent `git cat-file` processes open at once (one per repository). */
  catFileMaxProcesses: {
    section: 'cairn',
    key: 'GIT_CAT_FILE_MAX_PROCESSES',
    default: 64,
    parse: parsers.int(1, 4096),
  },
  /** An unused `git cat-file` process is ended after this long. */
  catFileIdleTimeoutMs: {
    section: 'cairn',
    key: 'GIT_CAT_FILE_IDLE_TIMEOUT',
    default: 60_000,
    parse: parsers.durationMs,
  },
  /** After a push, pushed tips' last commits are cached (Gitea's `CacheRef`) unless the tree is larger; 0: off. */
  lastCommitWarmMaxEntries: {
    section: 'cairn',
    key: 'LAST_COMMIT_WARM_MAX_ENTRIES',
    default: 2_000,
    parse: parsers.int(0, 1_000_000),
  },
};

export type GitReadSettings = SettingsOf<typeof gitReadSettingsSpec>;

export const GIT_READ_SETTINGS = Symbol('GIT_READ_SETTINGS');

export function loadGitReadSettings(env: NodeJS.ProcessEnv = process.env): GitReadSettings {
  return loadSettings(gitReadSettingsSpec, env);
}
