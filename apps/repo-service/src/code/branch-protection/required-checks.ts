import { compileGlob } from './glob.js';

export interface StatusOfContext {
  context: string;
  state: string;
}

/** Gitea's `MergeRequiredContextsCommitStatus`: every required glob matches a status, all matching ones `success`. */
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
