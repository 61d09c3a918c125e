import { describe, expect, it } from 'vitest';
import { ConfigError } from '@cairn/platform';
import { validateIssueTrackerSettings } from '../issue-tracker.module.js';
import { loadIssueSettings } from './issue-settings.js';
import { loadPullSettings } from '../pulls/pull-settings.js';

describe('issue and pull-request settings of repo-service', () => {
  it('default to Gitea\'s lock reasons and a 60 s check timeout', () => {
    expect(loadIssueSettings({}).lockReasons).toEqual(['Too heated', 'Off-topic', 'Resolved', 'Spam']);
    expect(loadPullSettings({}).checkTimeoutMs).toBe(60_000);
  });
  it('read LOCK_REASONS as a comma-separated list', () => {
    expect(loadIssueSettings({ CAIRN__REPOSITORY_ISSUE__LOCK_REASONS: 'Spam, Duplicate ,' }).lockReasons).toEqual(['Spam', 'Duplicate']);
  });
  it('refuse bad values with a message naming the setting', () => {
    expect(() => validateIssueTrackerSettings({ CAIRN__REPOSITORY_PULL_REQUEST__CHECK_TIMEOUT: 'forever' })).toThrow(ConfigError);
    expect(() => validateIssueTrackerSettings({ CAIRN__REPOSITORY_PULL_REQUEST__CHECK_TIMEOUT: 'forever' })).toThrow(
      /\[repository\.pull-request\] CHECK_TIMEOUT/,
    );
    expect(() => validateIssueTrackerSettings({ CAIRN__REPOSITORY_ISSUE__LOCK_REASONS: 'x'.repeat(101) })).toThrow(/LOCK_REASONS/);
  });
});
