/** The commits Cairn creates itself, each with its own `[repository.signing]` rule. */
export type SigningAction = 'initial-commit' | 'crud' | 'merge';

/** What the signing rules look at (Gitea's `SignInitialCommit`, `SignCRUDAction`, `SignMerge`). */
export interface SigningContext {
  /** The repository's git directory. */
  gitDir: string;
  /** The user making the change (null: Cairn itself). */
  actorId: number | null;
  /** crud: the commit the change builds on (null: a new branch of an empty repository). */
  parentCommit?: string | null;
  /** merge: the pull request's base and head commits. */
  baseCommit?: string;
  headCommit?: string;
}

/** How to sign one commit: the key and format handed to `git commit-tree -S`, and who signs. */
export interface CommitSigning {
  format: 'openpgp' | 'ssh';
  /** GPG key id, or the path of the SSH public key (its private key beside it). */
  key: string;
  /** The instance identity: Gitea commits signed commits as SIGNING_NAME <SIGNING_EMAIL>. */
  signer: { name: string; email: string };
}

/** Decides whether and how a commit Cairn creates is signed. */
export abstract class CommitSigner {
  /** null: leave the commit unsigned (the rules say no, or no key is configured). */
  abstract decide(action: SigningAction, ctx: SigningContext): Promise<CommitSigning | null>;
}
