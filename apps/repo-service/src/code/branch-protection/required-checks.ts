import { compileGlob } from './glob.js';

/** One commit status as the merge check needs it: its context and state (Gitea's `CommitStatusState`). */
export interface StatusOfContext {
  context: string;
  state: string;
}

/**
 * Whether a head commit's latest statuses satisfy a rule's required contexts (Gitea's
 * `MergeRequiredContextsCommitStatus`): each required context (a glob) must match at least one status, and every
 * matching status must be `success`. With no required contexts, every status must be `success` (none: passes).
 */
export function requiredChecksPass(required: string[], statuses: StatusOfContext[]): boolean {
  if (!required.length) return statuses.every((s) => s.state === 'success');
  return required.every((pattern) => {
    const glob = safeGlob(pattern);
    const matching = statuses.filter((s) => (glob ? glob.test(s.context) : s.context === pattern));
    return matching.length > 0 && matching.every((s) => s.state === 'success');
  });
}

function safeGlob(pattern: string): RegExp | null {
  try {
    return compileGlob(pattern, []);
  } catch {
    return null;
  }
}
