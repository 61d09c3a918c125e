import { describe, expect, it } from 'vitest';
import { SERVER_OWNED_REF_PREFIXES } from '@cairn/contracts';
import { journalOutcome, parseJournal, PRE_RECEIVE_HOOK, REFERENCE_TRANSACTION_HOOK } from './push-log.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const Z = '0'.repeat(40);

describe('parseJournal', () => {
  it('reads each record in order', () => {
    const text = `7 prepared ${A} ${B} refs/heads/main\n7 committed ${A} ${B} refs/heads/main\n8 aborted ${Z} ${A} refs/tags/v1\n`;
    expect(parseJournal(text)).toEqual({
      records: [
        { pid: 7, state: 'prepared', ref: 'refs/heads/main', old: A, new: B },
        { pid: 7, state: 'committed', ref: 'refs/heads/main', old: A, new: B },
        { pid: 8, state: 'aborted', ref: 'refs/tags/v1', old: Z, new: A },
      ],
      invalid: [],
    });
  });

  it('accepts SHA-256 object ids', () => {
    const a = 'a'.repeat(64);
    const z = '0'.repeat(64);
    expect(parseJournal(`1 committed ${z} ${a} refs/heads/main\n`).records).toEqual([
      { pid: 1, state: 'committed', ref: 'refs/heads/main', old: z, new: a },
    ]);
  });

  it('drops an unterminated last line (a write cut short) without calling it invalid', () => {
    expect(parseJournal(`1 committed ${A} ${B} refs/heads/a\n1 prepared ${A} ${B} refs/he`)).toEqual({
      records: [{ pid: 1, state: 'committed', ref: 'refs/heads/a', old: A, new: B }],
      invalid: [],
    });
    expect(parseJournal('')).toEqual({ records: [], invalid: [] });
  });

  it('skips HEAD, the default branch update git also reports through the symbolic ref', () => {
    const text = `7 prepared ${A} ${B} refs/heads/main\n7 prepared ${A} ${B} HEAD\n7 committed ${A} ${B} refs/heads/main\n7 committed ${A} ${B} HEAD\n`;
    expect(parseJournal(text)).toEqual({
      records: [
        { pid: 7, state: 'prepared', ref: 'refs/heads/main', old: A, new: B },
        { pid: 7, state: 'committed', ref: 'refs/heads/main', old: A, new: B },
      ],
      invalid: [],
    });
  });

  it('reports malformed lines instead of guessing', () => {
    const lines = [
      `committed ${A} ${B} refs/heads/main`,
      `1 started ${A} ${B} refs/heads/main`,
      `0 committed ${A} ${B} refs/heads/main`,
      `1 committed ${A} ${B} refs/heads/main extra`,
      `1 committed ${A.toUpperCase()} ${B} refs/heads/main`,
      `1 committed ${A} ${'b'.repeat(64)} refs/heads/main`,
      `1 committed ${A} ${B} main`,
      `1 committed ${A} ${B} refs/heads/-x..y`,
    ];
    const { records, invalid } = parseJournal(`${lines.join('\n')}\n1 committed ${A} ${B} refs/heads/ok\n`);
    expect(invalid).toEqual(lines);
    expect(records.map((r) => r.ref)).toEqual(['refs/heads/ok']);
  });
});

describe('journalOutcome', () => {
  const rec = (pid: number, state: 'prepared' | 'committed' | 'aborted', ref: string, old = Z, nu = A) =>
    ({ pid, state, ref, old, new: nu });

  it('committed updates in push order; prepared-only ones are unsettled; aborted ones are dropped', () => {
    const records = [
      rec(5, 'prepared', 'refs/heads/b'), rec(5, 'committed', 'refs/heads/b'),
      rec(5, 'prepared', 'refs/heads/a', A, B), rec(5, 'committed', 'refs/heads/a', A, B),
      rec(5, 'prepared', 'refs/heads/gone'), rec(5, 'aborted', 'refs/heads/gone'),
      rec(5, 'prepared', 'refs/heads/limbo'),
    ];
    expect(journalOutcome(records, 5)).toEqual({
      committed: [{ ref: 'refs/heads/b', old: Z, new: A }, { ref: 'refs/heads/a', old: A, new: B }],
      unsettled: [{ ref: 'refs/heads/limbo', old: Z, new: A }],
    });
  });

  it("counts only receive-pack's records: the pid noted, else the first record's", () => {
    const records = [rec(5, 'prepared', 'refs/heads/x'), rec(5, 'committed', 'refs/heads/x'), rec(9, 'committed', 'refs/heads/main')];
    expect(journalOutcome(records, 5).committed.map((l) => l.ref)).toEqual(['refs/heads/x']);
    expect(journalOutcome(records, null).committed.map((l) => l.ref)).toEqual(['refs/heads/x']);
    expect(journalOutcome(records, 9).committed.map((l) => l.ref)).toEqual(['refs/heads/main']);
  });

  it("ignores git's zero-to-zero packed-refs step of a deletion", () => {
    const records = [
      rec(5, 'prepared', 'refs/heads/x', Z, Z), rec(5, 'prepared', 'refs/heads/x', A, Z),
      rec(5, 'committed', 'refs/heads/x', Z, Z), rec(5, 'committed', 'refs/heads/x', A, Z),
    ];
    expect(journalOutcome(records, 5)).toEqual({ committed: [{ ref: 'refs/heads/x', old: A, new: Z }], unsettled: [] });
  });
});

describe('hooks', () => {
  it('are sh scripts that only pass input to printf as arguments', () => {
    for (const hook of [REFERENCE_TRANSACTION_HOOK, PRE_RECEIVE_HOOK]) {
      expect(hook.startsWith('#!/bin/sh\n')).toBe(true);
      expect(hook).not.toMatch(/\beval\b|`|\$\(/);
    }
    expect(REFERENCE_TRANSACTION_HOOK).toContain('[ -n "$j" ] || exit 0');
    expect(REFERENCE_TRANSACTION_HOOK).toContain(`printf '%s %s %s %s %s\\n' "$PPID" "$1" "$old" "$new" "$ref"`);
  });

  it('pre-receive refuses every server-owned namespace', () => {
    for (const prefix of SERVER_OWNED_REF_PREFIXES) expect(PRE_RECEIVE_HOOK).toContain(`${prefix}*`);
  });

  it('pre-receive asks repo-service only for pushes it registered (branch protection)', () => {
    expect(PRE_RECEIVE_HOOK).toContain('[ -n "$CAIRN_PRE_RECEIVE_KEY" ] || exit 0');
    expect(PRE_RECEIVE_HOOK).toContain('"$CAIRN_NODE" "${0%/*}/pre-receive-check.cjs"');
  });
});
