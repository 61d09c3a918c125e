import { describe, expect, it } from 'vitest';
import { ConfigError } from '@cairn/platform';
import { loadPullSettings } from './pull-settings.js';

const KEY = 'CAIRN__REPOSITORY_PULL_REQUEST__DELAY_CHECK_FOR_INACTIVE_DAYS';

describe('repo-service pull-request settings', () => {
  it('defaults to a 7-day delay and a 60 s check timeout', () => {
    const s = loadPullSettings({});
    expect(s.delayCheckForInactiveDays).toBe(7);
    expect(s.checkTimeoutMs).toBe(60_000);
  });
  it('reads 0 and -1 for the delay', () => {
    expect(loadPullSettings({ [KEY]: '0' }).delayCheckForInactiveDays).toBe(0);
    expect(loadPullSettings({ [KEY]: '-1' }).delayCheckForInactiveDays).toBe(-1);
  });
  it('refuses a bad delay with a message naming the setting', () => {
    expect(() => loadPullSettings({ [KEY]: 'seven' })).toThrow(ConfigError);
    expect(() => loadPullSettings({ [KEY]: 'seven' })).toThrow(/\[repository\.pull-request\] DELAY_CHECK_FOR_INACTIVE_DAYS/);
  });
});
