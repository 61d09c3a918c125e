import { loadSettings, parsers, type SettingsOf } from '@cairn/platform';

/** Settings of issues (Gitea's `[repository.issue]`). */
export const issueSettingsSpec = {
  /** `[repository.issue] LOCK_REASONS`: reasons accepted when locking, besides GitHub's four. */
  lockReasons: {
    section: 'repository.issue',
    key: 'LOCK_REASONS',
    default: ['Too heated', 'Off-topic', 'Resolved', 'Spam'] as string[],
    parse: (raw: string) => {
      const list = parsers.list(raw);
      for (const r of list) {
        if (r.length > 100) throw new Error('expected a comma-separated list of reasons of at most 100 characters each');
        // eslint-disable-next-line no-control-regex
        if (/[\x00-\x1f]/.test(r)) throw new Error('reasons may not contain control characters');
      }
      return list;
    },
  },
};

export type IssueSettings = SettingsOf<typeof issueSettingsSpec>;
export const ISSUE_SETTINGS = Symbol('ISSUE_SETTINGS');

export function loadIssueSettings(env: NodeJS.ProcessEnv = process.env): IssueSettings {
  return loadSettings(issueSettingsSpec, env);
}
