import type { CommitTrustStatus } from '@cairn/contracts';
import type { TrustModel } from '../../foundation/config/signing-settings.js';

/** A party to a signed commit: an account (id > 0) or someone without one (id 0), with the e-mail shown for them. */
export interface TrustParty {
  id: number;
  email: string;
}

/**
* Gitea's `CalculateTrustStatus` for a verified signature, per trust model (`committer`, `collaborator`,
* `collaboratorcommitter`). Gitea checks collaborators only for OpenPGP keys; Cairn checks every account's key.
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
