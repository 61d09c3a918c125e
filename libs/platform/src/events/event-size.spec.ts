import { EVENT_MAX_BYTES, EVENT_TEXT_CUT_MARK, EVENT_TEXT_MAX_BYTES } from '@cairn/contracts';
import { describe, expect, it } from 'vitest';
import { EventTooLargeError, boundEventTexts, cutText, jsonBytes } from './event-size.js';
import { eventEnvelope, outboxRow } from './outbox.js';

const inner = (s: string) => jsonBytes(s) - 2;

describe('cutText', () => {
  it('keeps texts that fit', () => {
    expect(cutText('hello')).toBe('hello');
    const fits = 'a'.repeat(EVENT_TEXT_MAX_BYTES);
    expect(cutText(fits)).toBe(fits);
  });

  it('cuts long texts to the limit, counting JSON escapes and UTF-8 bytes, never inside a code point', () => {
    for (const unit of ['a', 'é', '€', '😀', '\u0001', '"', '\n']) {
      const cut = cutText(unit.repeat(300_000));
      expect(inner(cut)).toBeLessThanOrEqual(EVENT_TEXT_MAX_BYTES);
      expect(inner(cut)).toBeGreaterThan(EVENT_TEXT_MAX_BYTES - 16);
      expect(cut.endsWith(EVENT_TEXT_CUT_MARK)).toBe(true);
      const body = cut.slice(0, -EVENT_TEXT_CUT_MARK.length);
      expect(body).toBe(unit.repeat(body.length / unit.length));
    }
  });
});

describe('boundEventTexts', () => {
  it('cuts every string of plain objects and arrays, and copies rather than changes the input', () => {
    const big = 'x'.repeat(EVENT_TEXT_MAX_BYTES + 1);
    const data = { a: big, nested: { list: [big, 1, null, true] }, when: new Date(0) };
    const bounded = boundEventTexts(data);
    expect(bounded.a.endsWith(EVENT_TEXT_CUT_MARK)).toBe(true);
    expect((bounded.nested.list[0] as string).endsWith(EVENT_TEXT_CUT_MARK)).toBe(true);
    expect(bounded.nested.list.slice(1)).toEqual([1, null, true]);
    expect(bounded.when).toBe(data.when);
    expect(data.a).toBe(big);
  });
});

describe('the event size invariant', () => {
  it('newEvent cuts a 512 KB comment body (of characters JSON escapes 6-fold) so the event fits', () => {
    const body = '\u0001'.repeat(256 * 1024);
    const event = eventEnvelope('repo.evt.issue-comment.edited', {
      comment: { body }, issue: { body }, changes: { body: { from: body } },
    });
    expect(jsonBytes(event)).toBeLessThan(EVENT_MAX_BYTES);
    expect(() => outboxRow(event)).not.toThrow();
  });

  it('outboxRow refuses an event over EVENT_MAX_BYTES with a clear error', () => {
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, 'y'.repeat(EVENT_TEXT_MAX_BYTES)]));
    const event = eventEnvelope('repo.evt.probe.made', many);
    expect(() => outboxRow(event)).toThrow(EventTooLargeError);
    expect(() => outboxRow(event)).toThrow(/repo\.evt\.probe\.made is \d+ bytes, over the \d+-byte limit/);
  });
});
