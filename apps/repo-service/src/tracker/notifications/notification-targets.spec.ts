import { describe, expect, it } from 'vitest';
import { IssueCommentEvents, IssueEvents, PullRequestEvents, PullReviewEvents, type AnyDomainEvent } from '@cairn/contracts';
import { mentionedLogins, notifyTarget } from './notification-targets.js';

// Partial payloads: only the fields the mapping reads.
const event = (type: string, data: unknown) => ({ id: 'e1', type, occurredAt: '2026-01-01T00:00:00Z', data }) as AnyDomainEvent;
const repository = { id: 7 };

describe('notification targets', () => {
  it('finds mentions in prose, not in code, once each', () => {
    expect(mentionedLogins('hi @Alice and @bob.x, (@carol) mail@example.com `@dave` @alice')).toEqual(['alice', 'bob.x', 'carol']);
    expect(mentionedLogins('```\n@erin\n```\n@frank.')).toEqual(['frank']);
  });

  it('maps issue, comment and pull-request events; ignores edits and issue events of pull requests', () => {
    expect(notifyTarget(event(IssueEvents.opened, { repository, number: 3, isPull: false, issue: { body: '@x' }, sender: { id: 5 } })))
      .toEqual({ repoId: 7, index: 3, doerId: 5, commentId: null, text: '@x' });
    expect(notifyTarget(event(IssueEvents.locked, { repository, number: 3, isPull: false, issue: {}, sender: null }))).toBeNull();
    expect(notifyTarget(event(IssueEvents.closed, { repository, number: 3, isPull: true, issue: {}, sender: null }))).toBeNull();
    expect(notifyTarget(event(IssueCommentEvents.created, { repository, issue: { number: 4 }, comment: { id: 9, body: 'b' }, sender: { id: 2 } })))
      .toEqual({ repoId: 7, index: 4, doerId: 2, commentId: 9, text: 'b' });
    expect(notifyTarget(event(PullRequestEvents.merged, { repository, number: 5, pullRequest: { body: '@y' }, sender: { id: 1 } })))
      .toEqual({ repoId: 7, index: 5, doerId: 1, commentId: null, text: '' });
    expect(notifyTarget(event(PullRequestEvents.synchronized, { repository, number: 5, pullRequest: {}, sender: null }))).toBeNull();
  });

  it('assignments and review requests tell only their user; a submitted review tells the participants', () => {
    expect(notifyTarget(event(IssueEvents.assigned, { repository, number: 3, assignee: { id: 8 }, sender: { id: 5 } })))
      .toEqual({ repoId: 7, index: 3, doerId: 5, commentId: null, text: '', receiverId: 8 });
    expect(notifyTarget(event(PullRequestEvents.assigned, { repository, number: 4, assignee: { id: 9 }, sender: { id: 5 } }))?.receiverId).toBe(9);
    expect(notifyTarget(event(IssueEvents.unassigned, { repository, number: 3, assignee: { id: 8 }, sender: { id: 5 } }))).toBeNull();
    expect(notifyTarget(event(PullReviewEvents.requested, { repository, number: 6, requestedReviewer: { id: 4 }, sender: { id: 5 } })))
      .toEqual({ repoId: 7, index: 6, doerId: 5, commentId: null, text: '', receiverId: 4 });
    expect(notifyTarget(event(PullReviewEvents.requestRemoved, { repository, number: 6, requestedReviewer: { id: 4 }, sender: null }))).toBeNull();
    expect(notifyTarget(event(PullReviewEvents.submitted, { repository, number: 6, review: { type: 'comment', content: '@z' }, sender: { id: 5 } })))
      .toEqual({ repoId: 7, index: 6, doerId: 5, commentId: null, text: '@z' });
  });
});
