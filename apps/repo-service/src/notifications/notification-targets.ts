import {
  IssueCommentEvents, IssueEvents, PullRequestEvents, PullReviewEvents,
  type DomainEvent, type IssueCommentEventData, type IssueEventData, type PullRequestEventData, type PullReviewEventData,
} from '@cairn/contracts';

/** What one event means for notifications: the issue (or pull request) it touched, who did it, and what they wrote. */
export interface NotifyTarget {
  repoId: number;
  /** The issue or pull-request number. */
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

/** Issue and pull-request events that notify participants (edits, locks, pushes and checks do not, as in Gitea). */
const ISSUE_EVENTS = new Set<string>([IssueEvents.opened, IssueEvents.closed, IssueEvents.reopened]);
const PULL_EVENTS = new Set<string>([
  PullRequestEvents.opened, PullRequestEvents.closed, PullRequestEvents.reopened, PullRequestEvents.merged,
]);

/** The notify target of an event, or null when the event notifies nobody. */
export function notifyTarget(event: DomainEvent): NotifyTarget | null {
  if (ISSUE_EVENTS.has(event.type)) {
    const d = event.data as IssueEventData;
    if (d.isPull) return null;
    return {
      repoId: d.repository.id, index: d.number, doerId: d.sender?.id ?? null, commentId: null,
      text: event.type === IssueEvents.opened ? (d.issue.body ?? '') : '',
    };
  }
  if (event.type === IssueCommentEvents.created) {
    const d = event.data as IssueCommentEventData;
    return {
      repoId: d.repository.id, index: d.issue.number, doerId: d.sender?.id ?? null, commentId: d.comment.id,
      text: d.comment.body ?? '',
    };
  }
  // Assigning, and asking for a review, tell that one user (Gitea's NotifyIssueChangeAssignee/PullRequestReviewRequest).
  if (event.type === IssueEvents.assigned || event.type === PullRequestEvents.assigned) {
    const d = event.data as IssueEventData | PullRequestEventData;
    if (!d.assignee) return null;
    return { repoId: d.repository.id, index: d.number, doerId: d.sender?.id ?? null, commentId: null, text: '', receiverId: d.assignee.id };
  }
  if (event.type === PullReviewEvents.requested || event.type === PullReviewEvents.submitted) {
    const d = event.data as PullReviewEventData;
    const base = { repoId: d.repository.id, index: d.number, doerId: d.sender?.id ?? null, commentId: null };
    if (event.type === PullReviewEvents.submitted) return { ...base, text: d.review?.content ?? '' };
    return d.requestedReviewer ? { ...base, text: '', receiverId: d.requestedReviewer.id } : null;
  }
  if (PULL_EVENTS.has(event.type)) {
    const d = event.data as PullRequestEventData;
    return {
      repoId: d.repository.id, index: d.number, doerId: d.sender?.id ?? null, commentId: null,
      text: event.type === PullRequestEvents.opened ? (d.pullRequest.body ?? '') : '',
    };
  }
  return null;
}

/**
 * `@login` mentions in Markdown text, lower-cased and without duplicates, as Gitea finds them: after the start or a
 * space or opening punctuation, a login ending in a letter or digit; code spans and fenced blocks are skipped.
 */
export function mentionedLogins(text: string, max = 50): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, ' ').replace(/`[^`\n]*`/g, ' ');
  const out = new Set<string>();
  for (const m of prose.matchAll(/(?:^|[\s([{,:;"'])@([0-9A-Za-z_.-]*[0-9A-Za-z])(?![0-9A-Za-z_-])/g)) {
    out.add(m[1].toLowerCase());
    if (out.size >= max) break;
  }
  return [...out];
}
