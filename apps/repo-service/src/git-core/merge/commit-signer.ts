import type { ActorDto, RepoRefDto } from '@cairn/contracts';
import type { TrustModel } from '../../shared/config/signing-settings.js';

/** The commits Cairn creates itself, each with its own `[repository.signing]` rule. */
export type SigningAction = 'initial-commit' | 'crud' | 'merge';

/** What the signing rules look at (Gitea's `SignInitialCommit`, `SignCRUDAction`, `SignMerge`). */
export interface SigningContext {
  /** The repository's git directory. */
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
  /** merge: the pull request's base and head commits. */
  baseCommit?: string;
  headCommit?: string;
  /**
   * merge: the pull request's approvals as the protection rule of the branch merged into counts them (`approved`;
   * asked only when a rule needs it; absent = none).
   */
  approvals?: () => Promise<number>;
}

/** A git identity as commit-tree takes it. */
export interface SignerIdentity {
  name: string;
  email: string;
}

/** How to sign one commit: the key and format handed to `git commit-tree -S`, and who signs. */
export interface CommitSigning {
  format: 'openpgp' | 'ssh';
  /** GPG key id, or the path of the SSH public key (its private key beside it). Never shown to clients. */
  key: string;
  /** The instance identity: Gitea commits signed commits as SIGNING_NAME <SIGNING_EMAIL>. */
  signer: SignerIdentity;
  /**
   * The trust model is `committer` or `collaboratorcommitter`: the signer becomes the committer (so the signature
   * matches its committer), as Gitea does.
   */
  committerIsSigner?: boolean;
  /**
   * With `committerIsSigner`, a file change whose committer differed from its author keeps that committer as
   * `Co-authored-by:`/`Co-committed-by:` trailers (Gitea's CRUD commits; merges and initial commits do not).
   */
  coAuthorTrailers?: boolean;
}

/** Decides whether and how a commit Cairn creates is signed. */
export abstract class CommitSigner {
  /** null: leave the commit unsigned (the rules say no, or no key is configured). */
  abstract decide(action: SigningAction, ctx: SigningContext): Promise<CommitSigning | null>;
}

/**
 * The committer and message of a commit signed with `signing` (Gitea's `CommitTree`): under the committer trust
 * models the signer commits, and a file change's own committer, when not its author, is kept as trailers.
 */
export function signedCommitParts<T extends SignerIdentity>(
  signing: CommitSigning | null,
  author: T,
  committer: T,
  message: string | Buffer,
): { committer: SignerIdentity; message: string | Buffer } {
  if (!signing?.committerIsSigner) return { committer, message };
  let out = message;
  if (signing.coAuthorTrailers && (committer.name !== author.name || committer.email !== author.email)) {
    const who = `${committer.name} <${committer.email}>`;
    const text = Buffer.isBuffer(message) ? message.toString('utf8') : message;
    out = `${text.endsWith('\n') ? text : `${text}\n`}\nCo-authored-by: ${who}\nCo-committed-by: ${who}\n`;
  }
  return { committer: { ...signing.signer }, message: out };
}
