import { describe, expect, it } from 'vitest';
import { livenessWriteIntervalMs } from '../config/runners-settings.js';
import { runnerState } from './runner-status.js';
import { hashRunnerToken, newRunnerToken, runnerTokenMatches } from './runner-token.js';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms);
const WINDOWS = { runnerOfflineTimeMs: 60_000, runnerIdleTimeMs: 10_000 };

describe('runnerState', () => {
  it('is offline without a heartbeat, or when the last one is as old as the offline time', () => {
    expect(runnerState({ lastOnline: null, lastActive: null }, NOW, WINDOWS)).toBe('offline');
    expect(runnerState({ lastOnline: ago(60_000), lastActive: ago(1) }, NOW, WINDOWS)).toBe('offline');
  });

  it('is busy (active) after a recent task report, idle otherwise', () => {
    expect(runnerState({ lastOnline: ago(59_999), lastActive: null }, NOW, WINDOWS)).toBe('idle');
    expect(runnerState({ lastOnline: ago(1), lastActive: ago(WINDOWS.runnerIdleTimeMs - 1) }, NOW, WINDOWS)).toBe('active');
    expect(runnerState({ lastOnline: ago(1), lastActive: ago(WINDOWS.runnerIdleTimeMs) }, NOW, WINDOWS)).toBe('idle');
  });
});

describe('runner tokens', () => {
  it('are 40 hex characters, stored as their SHA-256 and compared with it', () => {
    const token = newRunnerToken();
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect(hashRunnerToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(runnerTokenMatches(token, hashRunnerToken(token))).toBe(true);
    expect(runnerTokenMatches(`${token}0`, hashRunnerToken(token))).toBe(false);
    expect(runnerTokenMatches(token, 'not-a-hash')).toBe(false);
  });
});

describe('livenessWriteIntervalMs', () => {
  it('is the setting, but never more than a quarter of the offline time', () => {
    expect(livenessWriteIntervalMs({ runnerOfflineTimeMs: 60_000, livenessUpdateIntervalMs: 10_000 })).toBe(10_000);
    expect(livenessWriteIntervalMs({ runnerOfflineTimeMs: 2_000, livenessUpdateIntervalMs: 10_000 })).toBe(500);
  });
});
