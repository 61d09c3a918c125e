import { describe, expect, it } from 'vitest';
import { ConfigError } from '@cairn/platform';
import { loadWorkerSettings } from './worker-settings.js';

describe('merge-check-worker settings', () => {
  it('defaults to a 60 s check timeout', () => {
    expect(loadWorkerSettings({}).checkTimeoutMs).toBe(60_000);
  });
  it('refuses a bad value with a message naming the setting', () => {
    expect(() => loadWorkerSettings({ CAIRN__REPOSITORY_PULL_REQUEST__CHECK_TIMEOUT: 'soon' })).toThrow(ConfigError);
    expect(() => loadWorkerSettings({ CAIRN__REPOSITORY_PULL_REQUEST__CHECK_TIMEOUT: 'soon' })).toThrow(/CHECK_TIMEOUT/);
    expect(() => loadWorkerSettings({ CAIRN__MERGE_CHECK__CONCURRENCY: '0' })).toThrow(/CONCURRENCY/);
  });
  it('reads Go-style durations for the timeout', () => {
    expect(loadWorkerSettings({ CAIRN__REPOSITORY_PULL_REQUEST__CHECK_TIMEOUT: '2m' }).checkTimeoutMs).toBe(120_000);
  });
});
