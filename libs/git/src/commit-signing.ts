export interface SignerIdentity {
  name: string;
  email: string;
}

export interface CommitSigning {
  format: 'openpgp' | 'ssh';
  /** Never shown to clients. */
  key: string;
  /** Gitea commits signed commits as SIGNING_NAME <SIGNING_EMAIL>. */
  signer: SignerIdentity;
  /** Under `committer`/`collaboratorcommitter` the signer becomes the committer, as Gitea does. */
  committerIsSigner?: boolean;
  /** A file change's differing committer is kept as `Co-authored-by:`/`Co-committed-by:` trailers (Gitea's CRUD commits). */
  coAuthorTrailers?: boolean;
}

/** Gitea's `CommitTree`. */
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
