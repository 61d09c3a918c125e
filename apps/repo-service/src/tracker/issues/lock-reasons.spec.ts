import { describe, expect, it } from 'vitest';
import { acceptedLockReasons, checkLockReason } from './lock-reasons.js';

const DEFAULT = ['Too heated', 'Off-topic', 'Resolved', 'Spam'];

describe('lock reasons', () => {
  it('accepts GitHub\'s reasons and stores GitHub\'s spelling', () => {
    expect(checkLockReason('off-topic', DEFAULT)).toEqual({ ok: true, reason: 'off-topic' });
    expect(checkLockReason('too heated', DEFAULT)).toEqual({ ok: true, reason: 'too heated' });
    expect(checkLockReason('resolved', DEFAULT)).toEqual({ ok: true, reason: 'resolved' });
    expect(checkLockReason('spam', DEFAULT)).toEqual({ ok: true, reason: 'spam' });
  });
  it('matches case-insensitively, ignoring surrounding blanks', () => {
    expect(checkLockReason('Off-Topic', DEFAULT)).toEqual({ ok: true, reason: 'off-topic' });
    expect(checkLockReason('  SPAM ', DEFAULT)).toEqual({ ok: true, reason: 'spam' });
    expect(checkLockReason('Too Heated', DEFAULT)).toEqual({ ok: true, reason: 'too heated' });
  });
  it('accepts the instance\'s LOCK_REASONS in their configured spelling', () => {
    expect(checkLockReason('duplicate', ['Duplicate', 'Spam'])).toEqual({ ok: true, reason: 'Duplicate' });
  });
  it('treats absent, null and blank reasons as none', () => {
    expect(checkLockReason(undefined, DEFAULT)).toEqual({ ok: true, reason: null });
    expect(checkLockReason(null, DEFAULT)).toEqual({ ok: true, reason: null });
    expect(checkLockReason('   ', DEFAULT)).toEqual({ ok: true, reason: null });
  });
  it('refuses any other reason, listing the accepted ones', () => {
    const r = checkLockReason('because', DEFAULT);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.accepted).toEqual(['off-topic', 'too heated', 'resolved', 'spam']);
    expect(r.message).toContain('"because"');
    expect(r.message).toContain('"off-topic", "too heated", "resolved", "spam"');
  });
  it('refuses a reason that is not a string', () => {
    expect(checkLockReason(42, DEFAULT).ok).toBe(false);
    expect(checkLockReason({ a: 1 }, DEFAULT).ok).toBe(false);
  });
  it('lists GitHub\'s reasons first and drops case-insensitive duplicates', () => {
    expect(acceptedLockReasons(['Spam', 'Duplicate', 'duplicate', ' '])).toEqual([
      'off-topic', 'too heated', 'resolved', 'spam', 'Duplicate',
    ]);
  });
});
