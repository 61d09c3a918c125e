import { describe, expect, it } from 'vitest';
import { isFullRefName } from '@cairn/contracts';
import { parsePushLog, POST_RECEIVE_HOOK } from './push-log.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const Z = '0'.repeat(40);

describe('parsePushLog', () => {
  it('reads each update in order', () => {
    const text = `${A} ${B} refs/heads/main\n${Z} ${A} refs/heads/feature/x\n${B} ${Z} refs/tags/v1\n`;
    expect(parsePushLog(text)).toEqual({
      updates: [
        { ref: 'refs/heads/main', old: A, new: B },
        { ref: 'refs/heads/feature/x', old: Z, new: A },
        { ref: 'refs/tags/v1', old: B, new: Z },
      ],
      invalid: [],
    });
  });

  it('accepts SHA-256 object ids', () => {
    const a = 'a'.repeat(64);
    const z = '0'.repeat(64);
    expect(parsePushLog(`${z} ${a} refs/heads/main\n`).updates).toEqual([{ ref: 'refs/heads/main', old: z, new: a }]);
  });

  it('is empty for an empty log (nothing updated)', () => {
    expect(parsePushLog('')).toEqual({ updates: [], invalid: [] });
    expect(parsePushLog('\n')).toEqual({ updates: [], invalid: [] });
  });

  it('reports malformed lines instead of guessing', () => {
    const lines = [
      `${A} ${B}`,
      `${A} ${B} refs/heads/main extra`,
      `${A.toUpperCase()} ${B} refs/heads/main`,
      `${A.slice(1)} ${B} refs/heads/main`,
      `${A} ${'b'.repeat(64)} refs/heads/main`,
      `${A} ${B} main`,
      `${A} ${B} refs/heads/../x`,
      `${A}  ${B} refs/heads/main`,
    ];
    const { updates, invalid } = parsePushLog(`${lines.join('\n')}\n${A} ${B} refs/heads/ok\n`);
    expect(updates).toEqual([{ ref: 'refs/heads/ok', old: A, new: B }]);
    expect(invalid).toEqual(lines);
  });
});

describe('isFullRefName (push log refs)', () => {
  it.each(['refs/heads/main', 'refs/heads/feature/x-1.2', 'refs/tags/v1.0', 'refs/pull/1/head'])('accepts %s', (r) => {
    expect(isFullRefName(r)).toBe(true);
  });
  it.each([
    'main',
    'refs/heads/a..b',
    'refs/heads/a b',
    'refs/heads/x.lock',
    'refs/heads/.hidden',
    'refs/heads/x/',
    'refs/heads/x.',
    'refs/heads/a~1',
    'refs/heads/a^',
    'refs/heads/a:b',
    'refs/heads/a*',
    'refs/heads/a@{1}',
    'refs/heads//a',
  ])('rejects %s', (r) => {
    expect(isFullRefName(r)).toBe(false);
  });
});

describe('POST_RECEIVE_HOOK', () => {
  it('copies stdin to the per-push file and does nothing without one', () => {
    expect(POST_RECEIVE_HOOK.startsWith('#!/bin/sh\n')).toBe(true);
    expect(POST_RECEIVE_HOOK).toContain('[ -n "$CAIRN_PUSH_LOG" ] || exit 0');
    expect(POST_RECEIVE_HOOK).toContain('exec cat > "$CAIRN_PUSH_LOG"');
  });
});
