import type { CommitTrustStatus } from '@cairn/contracts';
import type { TrustModel } from '../../foundation/config/signing-settings.js';

/** A party to a signed commit: an account (id > 0) or someone without one (id 0), with the e-mail shown for them. */
export interface TrustParty {
  id: number;
  email: string;
}

/**
 * Gitea's `CalculateTrustStatus` for a verified signature (unverified commits have none):
 * - committer: trusted when signer and committer are the same account, or both have none and share the address;
 *   else unmatched;
 * - collaborator: instance signatures (no account) are trusted; an account's key is trusted when its owner is the
 *   repository's owner, a member of a team with the repository, or a collaborator — else untrusted, or unmatched
 *   when the signer is not the committer;
 * - collaboratorcommitter: as collaborator, but the signer must also be the committer (unmatched), and instance
 *   signatures are untrusted unless the committer is no account with the signing address.
 * `isCollaborator` is asked only for account signers under the collaborator models. Gitea checks it only for
 * OpenPGP keys (an SSH key's signer passes unchecked there); Cairn checks every account's key.
 */
export function trustStatus(
  model: TrustModel,
  signer: TrustParty,
  committer: TrustParty,
  isCollaborator: (userId: number) => boolean,
): CommitTrustStatus {
  if (model === 'committer') {
    const same =
      (signer.id !== 0 && committer.id === signer.id) ||
      (signer.id === 0 && committer.id === 0 && signer.email === committer.email);
    return same ? 'trusted' : 'unmatched';
  }
  if (signer.id === 0) {
    const committerIsSigner = committer.id === 0 && signer.email === committer.email;
    return model === 'collaboratorcommitter' && !committerIsSigner ? 'untrusted' : 'trusted';
  }
  if (!isCollaborator(signer.id)) return committer.id !== signer.id ? 'unmatched' : 'untrusted';
  if (model === 'collaboratorcommitter' && committer.id !== signer.id) return 'unmatched';
  return 'trusted';
}
