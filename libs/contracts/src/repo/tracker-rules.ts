import { accessAtLeast, type AccessLevel } from './repo-access.dto.js';

// The tracker's rules judged inside an operation, beyond its REPO_ACCESS_NEEDS level: repo-service enforces them and
// the web only hides what they would refuse. `access` is the level on the issue's own unit (issues or pulls).

/** Labels, milestone and assignees, on create or edit: writers only (Gitea ignores them from others). */
export function mayTriage(access: AccessLevel): boolean {
  return accessAtLeast(access, 'write');
}

/** Editing an issue or comment, or choosing a pull request's reviewers: writers, or its author. */
export function isWriterOrAuthor(access: AccessLevel, actorId: number | null | undefined, authorId: number): boolean {
  return accessAtLeast(access, 'write') || (actorId != null && actorId === authorId);
}

/** Gitea's `comment_on_locked`: a locked conversation is for writers and site admins. */
export function mayTalkWhenLocked(access: AccessLevel, isSiteAdmin: boolean): boolean {
  return accessAtLeast(access, 'write') || isSiteAdmin;
}

/** An approval or a request for changes counts (Gitea's "official" review) only from a writer. */
export function countsAsOfficialReview(access: AccessLevel): boolean {
  return accessAtLeast(access, 'write');
}
