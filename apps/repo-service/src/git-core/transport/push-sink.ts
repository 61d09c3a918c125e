import type { RefUpdateLine } from './push-log.js';

export interface PushContext {
  /** Repository id (as resolved by the gateway for HTTP, by `repo.access.resolve` for SSH). */
  repoId: number;
  dir: string;
  /** The pusher's user id (null only if a push were ever anonymous). */
  pusherId: number | null;
  /** Set when a deploy key pushes (over SSH; `pusherId` is then the repository's owner): branch protection asks. */
  deployKeyId?: number;
  /** `api`: repo-service's own commits (the contents write API), recorded like a push. */
  via: 'http' | 'ssh' | 'api';
  /** Recorded at most once (marked in the events' transaction), whether by its instance or a replay after a crash. */
  journalId: string;
}

/** Receives the exact ref updates of every successful push (the push recorder); a rejection means "not recorded". */
export type PushSink = (context: PushContext, updates: RefUpdateLine[]) => Promise<void>;

export const PUSH_SINK = Symbol('PUSH_SINK');
