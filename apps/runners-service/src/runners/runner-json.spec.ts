import { describe, expect, it } from 'vitest';
import { toRunnerJson } from './runner-json.js';
import { hashRunnerToken } from './runner-token.js';

const live = { runnerOfflineTimeMs: 60_000, runnerIdleTimeMs: 10_000 };
const now = Date.parse('2026-01-01T12:00:00Z');
const runner = (lastOnline: number | null, lastActive: number | null) => ({
  id: 7, name: 'r', ephemeral: false, labels: ['linux', 'x64'],
  lastOnline: lastOnline === null ? null : new Date(now - lastOnline),
  lastActive: lastActive === null ? null : new Date(now - lastActive),
});

describe("a runner's status and busy state (Gitea's offline and idle windows)", () => {
  it('online within the offline time, offline at it and after, offline when never seen', () => {
    expect(toRunnerJson(runner(59_999, null), live, now).status).toBe('online');
    expect(toRunnerJson(runner(60_000, null), live, now).status).toBe('offline');
    expect(toRunnerJson(runner(null, null), live, now)).toMatchObject({ status: 'offline', busy: false, last_online: null });
  });

  it('busy only while online and active within the idle time', () => {
    expect(toRunnerJson(runner(1_000, 9_999), live, now).busy).toBe(true);
    expect(toRunnerJson(runner(1_000, 10_000), live, now).busy).toBe(false);
    expect(toRunnerJson(runner(61_000, 1_000), live, now).busy).toBe(false);
  });

  it("labels by position, all custom; last_online at Gitea's second precision", () => {
    expect(toRunnerJson(runner(1_500, null), live, now)).toMatchObject({
      labels: [{ id: 0, name: 'linux', type: 'custom' }, { id: 1, name: 'x64', type: 'custom' }],
      last_online: '2026-01-01T11:59:58Z',
    });
  });
});

describe('hashRunnerToken', () => {
  it('is the SHA-256 hex of the token (what the runner protocol looks registration tokens up by)', () => {
    expect(hashRunnerToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
