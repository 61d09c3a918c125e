import type { ActorDto, RepoRefDto } from '@cairn/contracts';
import type { CommitSigning } from '@cairn/git';
import type { TrustModel } from '../../foundation/config/signing-settings.js';

/** The commits Cairn creates itself, each with its own `[repository.signing]` rule. */
export type SigningAction = 'initial-commit' | 'crud' | 'merge';

/** What the signing rules look at (Gitea's `SignInitialCommit`, `SignCRUDAction`, `SignMerge`). */
export interface SigningContext {
  gitDir: string;
  /** The repository, when it exists already (what a signature verifier needs to judge its commits). */
  repo?: RepoRefDto;
  /** The repository's trust model; absent or `default`: `[repository.signing] DEFAULT_TRUST_MODEL`. */
  trustModel?: TrustModel | 'default';
  /** The user making the change (null: Cairn itself). */
  actorId: number | null;
  /** The actor as authenticated, when the caller has it: `twofa` reads its `hasTwoFactor` instead of asking identity. */
  actor?: ActorDto | null;
  /** crud: the commit the change builds on (null: a new branch of an empty repository — the initial-commit rules). */
  parentCommit?: string | null;
  baseCommit?: string;
  headCommit?: string;
  /** merge: approvals as the target branch's rule counts them (`approved`; asked only when a rule needs it). */
  approvals?: () => Promise<number>;
}

export abstract class CommitSigner {
  /** null: leave the commit unsigned (the rules say no, or no key is configured). */
  abstract decide(action: SigningAction, ctx: SigningContext): Promise<CommitSigning | null>;
}
