import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_EVENT_NAMES, HOOK_EVENT_KEYS, eventsForDto, headerEventOf, hookWants, parseEvents, UnknownEventError,
} from './hook-events.js';

describe('hook events', () => {
  it('empty or absent means push only', () => {
    expect(parseEvents(undefined)).toEqual({ events: ['push'], sendEverything: false });
    expect(parseEvents([])).toEqual({ events: ['push'], sendEverything: false });
  });

  it('issues expands to the issue family, issues_only to issues alone', () => {
    expect(parseEvents(['issues']).events).toEqual(['issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment']);
    expect(parseEvents(['issues_only']).events).toEqual(['issues']);
  });

  it('pull_request expands to the pull-request family, pull_request_only to pull_request alone', () => {
    expect(parseEvents(['pull_request']).events).toEqual([
      'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment',
      'pull_request_review', 'pull_request_sync', 'pull_request_review_request',
    ]);
    expect(parseEvents(['pull_request_only']).events).toEqual(['pull_request']);
  });

  it('names are case-insensitive and de-duplicated; * is every event', () => {
    expect(parseEvents(['Push', 'CREATE', 'push']).events).toEqual(['create', 'push']);
    const all = parseEvents(['*']);
    expect(all.sendEverything).toBe(true);
    expect(eventsForDto(all)).toEqual([...HOOK_EVENT_KEYS]);
  });

  it('refuses unknown names, listing them', () => {
    expect(() => parseEvents(['push', 'pushh', 'star'])).toThrow(UnknownEventError);
    expect(() => parseEvents(['pushh'])).toThrow(/pushh/);
    for (const name of ACCEPTED_EVENT_NAMES) expect(() => parseEvents([name])).not.toThrow();
  });

  it('event types are enabled by their key; review types by pull_request_review', () => {
    const hook = parseEvents(['pull_request_review_approved', 'create']);
    expect(hookWants(hook, 'pull_request_review_rejected')).toBe(true);
    expect(hookWants(hook, 'create')).toBe(true);
    expect(hookWants(hook, 'push')).toBe(false);
    expect(hookWants({ events: [], sendEverything: true }, 'issue_label')).toBe(true);
    expect(hookWants({ events: [], sendEverything: true }, 'not_an_event')).toBe(false);
  });

  it('announces event types as Gitea header events', () => {
    expect(headerEventOf('issue_assign')).toBe('issues');
    expect(headerEventOf('pull_request_sync')).toBe('pull_request');
    expect(headerEventOf('pull_request_comment')).toBe('issue_comment');
    expect(headerEventOf('pull_request_review_approved')).toBe('pull_request_approved');
    expect(headerEventOf('push')).toBe('push');
  });
});
