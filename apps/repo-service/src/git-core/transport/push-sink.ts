import type { RefUpdateLine } from './push-log.js';

/** Who pushed where: what the transport knows when a receive-pack has finished. */
export interface PushContext {
  /** Repository id (as resolved by the gateway for HTTP, by `repo.access.resolve` for SSH). */
  repoId: number;
  /** The repository's storage directory. */
  dir: string;
  /** The pusher's user id (null only if a push were ever anonymous). */
  pusherId: number | null;
  /** Set when a deploy key pushes (over SSH; `pusherId` is then the repository's owner): branch protection asks. */
  deployKeyId?: number;
  /** `api`: repo-service's own commits (the contents write API), recorded like a push. */
  via: 'http' | 'ssh' | 'api';
  /**
   * The push's journal (`PushJournals`): the sink records a journal at most once (marked done in the transaction
   * that writes its events), however often it is handed over — by its instance, or by a replay after a crash.
   */
  journalId: string;
}

/** Receives the exact ref updates of every successful push (the push recorder); a rejection means "not recorded". */
export type PushSink = (context: PushContext, updates: RefUpdateLine[]) => Promise<void>;

/** The injection token of the {@link PushSink} the transports feed (repo-service's push recorder). */
export const PUSH_SINK = Symbol('PUSH_SINK');
