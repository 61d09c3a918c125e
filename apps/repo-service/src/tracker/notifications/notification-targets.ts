import {
  IssueCommentEvents, IssueEvents, PullRequestEvents, PullReviewEvents, type AnyDomainEvent,
} from '@cairn/contracts';

/** What one event means for notifications: the issue (or pull request) it touched, who did it, and what they wrote. */
export interface NotifyTarget {
  repoId: number;
  index: number;
  /** The user who acted (never notified of their own action); null for system actions. */
  doerId: number | null;
  /** The comment the event created, if any (the thread's latest comment). */
  commentId: number | null;
  /** New text whose @mentions notify the users named (the opened issue's body, the new comment). */
  text: string;
  /** Only this user is told (Gitea's `receiverID`: the assignee, the requested reviewer); else every participant. */
  receiverId?: number;
}

/** Openings, closings, merges, comments tell participants; assignments and review requests one user; rest nobody. */
export function notifyTarget(event: AnyDomainEvent): NotifyTarget | null {
  switch (event.type) {
    case IssueEvents.opened:
    case IssueEvents.closed:
    case IssueEvents.reopened: {
      const d = event.data;
      if (d.isPull) return null;
      return {
        repoId: d.repository.id, index: d.number, doerId: d.sender?.id ?? null, commentId: null,
        text: event.type === IssueEvents.opened ? (d.issue.body ?? '') : '',
      };
    }
    case IssueCommentEvents.created: {
      const d = event.data;
      return {
        repoId: d.repository.id, index: d.issue.number, doerId: d.sender?.id ?? null, commentId: d.comment.id,
        text: d.comment.body ?? '',
      };
    }
    case IssueEvents.assigned:
    case PullRequestEvents.assigned: {
      const d = event.data;
      if (!d.assignee) return null;
      return { repoId: d.repository.id, index: d.number, doerId: d.sender?.id ?? null, commentId: null, text: '', receiverId: d.assignee.id };
    }
    case PullReviewEvents.requested:
    case PullReviewEvents.submitted: {
      const d = event.data;
      const base = { repoId: d.repository.id, index: d.number, doerId: d.sender?.id ?? null, commentId: null };
      if (event.type === PullReviewEvents.submitted) return { ...base, text: d.review?.content ?? '' };
      return d.requestedReviewer ? { ...base, text: '', receiverId: d.requestedReviewer.id } : null;
    }
    case PullRequestEvents.opened:
    case PullRequestEvents.closed:
    case PullRequestEvents.reopened:
    case PullRequestEvents.merged: {
      const d = event.data;
      return {
        repoId: d.repository.id, index: d.number, doerId: d.sender?.id ?? null, commentId: null,
        text: event.type === PullRequestEvents.opened ? (d.pullRequest.body ?? '') : '',
      };
    }
    default:
      return null;
  }
}

/** Gitea's mention rule: after start, space or opening punctuation, ending in a letter or digit; code is skipped. */
export function mentionedLogins(text: string, max = 50): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, ' ').replace(/`[^`\n]*`/g, ' ');
  const out = new Set<string>();
  for (const m of prose.matchAll(/(?:^|[\s([{,:;"'])@([0-9A-Za-z_.-]*[0-9A-Za-z])(?![0-9A-Za-z_-])/g)) {
    out.add(m[1].toLowerCase());
    if (out.size >= max) break;
  }
  return [...out];
}
