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
