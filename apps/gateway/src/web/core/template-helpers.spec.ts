import { describe, expect, it } from 'vitest';
import { fileSize, plural, relativeTime, timeElement } from './template-helpers.js';
import { createViews } from './views.js';

describe('template helpers', () => {
  const now = new Date('2026-11-28T12:00:00Z');

  it('gives file sizes as people read them', () => {
    expect(fileSize(0)).toBe('0 B');
    expect(fileSize(1023)).toBe('1023 B');
    expect(fileSize(1024)).toBe('1 KiB');
    expect(fileSize(2000)).toBe('2 KiB');
    expect(fileSize(1536)).toBe('1.5 KiB');
    expect(fileSize(300 * 1024)).toBe('300 KiB');
    expect(fileSize(5 * 1024 * 1024 * 1024)).toBe('5 GiB');
  });

  it('says how long ago, in words', () => {
    expect(relativeTime(new Date('2026-11-28T11:59:50Z'), now)).toBe('just now');
    expect(relativeTime(new Date('2026-11-28T11:55:00Z'), now)).toBe('5 minutes ago');
    expect(relativeTime(new Date('2026-11-28T11:00:00Z'), now)).toBe('1 hour ago');
    expect(relativeTime(new Date('2026-11-25T12:00:00Z'), now)).toBe('3 days ago');
    expect(relativeTime(new Date('2026-12-05T12:00:00Z'), now)).toBe('in 1 week');
  });

  it('puts the absolute time on hover and escapes nothing it did not make', () => {
    const html = timeElement('2026-11-28T09:30:00Z', now);
    expect(html).toBe('<time datetime="2026-11-28T09:30:00.000Z" title="2026-11-28 09:30 UTC">2 hours ago</time>');
    expect(timeElement('not a time', now)).toBe('');
    expect(timeElement(null, now)).toBe('');
  });

  it('counts in the singular for one', () => {
    expect(plural(1, 'commit')).toBe('1 commit');
    expect(plural(2, 'commit')).toBe('2 commits');
    expect(plural(0, 'branch', 'branches')).toBe('0 branches');
  });

  it('is bound as `ui` in every template', () => {
    const views = createViews(false);
    expect(views.renderString('<%= ui.plural(it.n, "file") %>', { n: 3 })).toBe('3 files');
  });
});
