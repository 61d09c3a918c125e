import { describe, expect, it } from 'vitest';
import { ConfigError } from '@cairn/platform';
import { loadWorkerSettings } from './worker-settings.js';

const KEY = 'CAIRN__REPOSITORY_PULL_REQUEST__DELAY_CHECK_FOR_INACTIVE_DAYS';

describe('merge-check-worker settings', () => {
  it('defaults to a 7-day delay and a 60 s check timeout', () => {
    const s = loadWorkerSettings({});
    expect(s.delayCheckForInactiveDays).toBe(7);
    expect(s.checkTimeoutMs).toBe(60_000);
  });
  it('reads 0 and -1 for the delay', () => {
    expect(loadWorkerSettings({ [KEY]: '0' }).delayCheckForInactiveDays).toBe(0);
    expect(loadWorkerSettings({ [KEY]: '-1' }).delayCheckForInactiveDays).toBe(-1);
  });
  it('refuses a bad value with a message naming the setting', () => {
    expect(() => loadWorkerSettings({ [KEY]: 'seven' })).toThrow(ConfigError);
    expect(() => loadWorkerSettings({ [KEY]: 'seven' })).toThrow(/\[repository\.pull-request\] DELAY_CHECK_FOR_INACTIVE_DAYS/);
    expect(() => loadWorkerSettings({ CAIRN__REPOSITORY_PULL_REQUEST__CHECK_TIMEOUT: 'soon' })).toThrow(/CHECK_TIMEOUT/);
    expect(() => loadWorkerSettings({ CAIRN__MERGE_CHECK__CONCURRENCY: '0' })).toThrow(/CONCURRENCY/);
  });
  it('reads Go-style durations for the timeout', () => {
    expect(loadWorkerSettings({ CAIRN__REPOSITORY_PULL_REQUEST__CHECK_TIMEOUT: '2m' }).checkTimeoutMs).toBe(120_000);
  });
});
