import { describe, expect, it } from 'vitest';
import {
  MERGE_CHECK_MAX_PRIORITY, checkNowAfterBaseMove, mergeCheckJobId, mergeCheckPriority,
} from '@cairn/contracts';

const DAY = 86_400_000;
const now = new Date('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('delay rule after a base push (DELAY_CHECK_FOR_INACTIVE_DAYS)', () => {
  it('7: checks pull requests updated within the last 7 days now', () => {
    expect(checkNowAfterBaseMove(ago(1000), now, 7)).toBe(true);
    expect(checkNowAfterBaseMove(ago(6 * DAY), now, 7)).toBe(true);
  });
  it('7: delays pull requests whose activity was backdated beyond 7 days', () => {
    expect(checkNowAfterBaseMove(ago(8 * DAY), now, 7)).toBe(false);
    expect(checkNowAfterBaseMove(ago(400 * DAY), now, 7)).toBe(false);
  });
  it('7: exactly 7 days ago is delayed, a millisecond less is not (Gitea: updated + N days <= now delays)', () => {
    expect(checkNowAfterBaseMove(ago(7 * DAY), now, 7)).toBe(false);
    expect(checkNowAfterBaseMove(ago(7 * DAY - 1), now, 7)).toBe(true);
  });
  it('0: delays every pull request, even one updated this second', () => {
    expect(checkNowAfterBaseMove(now, now, 0)).toBe(false);
    expect(checkNowAfterBaseMove(ago(1), now, 0)).toBe(false);
  });
  it('-1 (any negative value): never delays', () => {
    expect(checkNowAfterBaseMove(ago(10_000 * DAY), now, -1)).toBe(true);
    expect(checkNowAfterBaseMove(ago(10_000 * DAY), now, -30)).toBe(true);
  });
  it('1: the boundary moves with the setting', () => {
    expect(checkNowAfterBaseMove(ago(DAY - 1), now, 1)).toBe(true);
    expect(checkNowAfterBaseMove(ago(DAY), now, 1)).toBe(false);
  });
});

describe('merge-check job ids', () => {
  it('are one per pull request and commit pair, without the ":" BullMQ forbids', () => {
    expect(mergeCheckJobId(12, A, B)).toBe(`pr-12-${A}-${B}`);
    expect(mergeCheckJobId(12, A, B)).toBe(mergeCheckJobId(12, A, B));
    expect(mergeCheckJobId(12, B, A)).not.toBe(mergeCheckJobId(12, A, B));
    expect(mergeCheckJobId(13, A, B)).not.toBe(mergeCheckJobId(12, A, B));
    expect(mergeCheckJobId(12, A, B)).not.toContain(':');
  });
});

describe('merge-check priorities (lower runs first)', () => {
  it('runs recently updated pull requests before old ones', () => {
    const fresh = mergeCheckPriority(ago(60_000), now);
    const day = mergeCheckPriority(ago(DAY), now);
    const week = mergeCheckPriority(ago(7 * DAY), now);
    expect(fresh).toBeLessThan(day);
    expect(day).toBeLessThan(week);
  });
  it('keeps urgent checks (priority 1) ahead of every push-triggered one', () => {
    expect(mergeCheckPriority(now, now, 0)).toBeGreaterThan(1);
  });
  it('spreads a large batch of one push so a small batch queued later is not starved', () => {
    const bigBatchTail = mergeCheckPriority(ago(60_000), now, 1999);
    const otherRepoFirst = mergeCheckPriority(ago(3_600_000 * 5), now, 0);
    expect(otherRepoFirst).toBeLessThan(bigBatchTail);
  });
  it('stays within BullMQ range for ancient or future dates', () => {
    expect(mergeCheckPriority(new Date(0), now, 10_000_000)).toBe(MERGE_CHECK_MAX_PRIORITY);
    expect(mergeCheckPriority(new Date(now.getTime() + DAY), now)).toBe(2);
  });
});
