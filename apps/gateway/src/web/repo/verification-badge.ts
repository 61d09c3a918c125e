import type { PayloadCommitVerificationDto } from '@cairn/contracts';

/** The badge states Gitea's web UI shows for a commit's signature. */
export type BadgeState = 'unsigned' | 'unverified' | 'verified' | 'trusted' | 'untrusted' | 'unmatched';

export interface VerificationBadge {
  state: BadgeState;
  label: string;
  /** The sentence behind the badge (its title and the commit page's line). */
  description: string;
  /** The signer's name (and login, e-mail) when the signature verified. */
  signer: string | null;
  /** OpenPGP key id or SSH `SHA256:` fingerprint, when the signature verified. */
  key: string | null;
}

/** Readable forms of Gitea's i18n reason keys (the API carries the keys; the page shows sentences). */
const REASON_TEXT: Readonly<Record<string, string>> = {
  'gpg.error.not_signed_commit': 'This commit is not signed.',
  'gpg.error.extract_sign': 'The signature cannot be read.',
  'gpg.error.generate_hash': 'The signature uses a hash that is not accepted.',
  'gpg.error.no_gpg_keys_found': 'No known key found for this signature.',
  'gpg.error.probable_bad_signature': 'The signature does not match the known key: it may have been tampered with.',
  'gpg.error.failed_retrieval_gpg_keys': 'The signing keys could not be retrieved; try again later.',
};

const TRUST: Readonly<Record<'trusted' | 'untrusted' | 'unmatched', { label: string; text: string }>> = {
  trusted: { label: 'Trusted', text: 'Signed by a key trusted in this repository.' },
  untrusted: { label: 'Untrusted', text: 'Signed by a verified key of a user who is not a collaborator of this repository.' },
  unmatched: { label: 'Unmatched', text: 'Signed by a verified key, but the committer does not match the signer.' },
};

/** Never says more than the API: none, "Unverified" with the reason, or the trust status with signer and key. */
export function verificationBadge(v: PayloadCommitVerificationDto | null | undefined): VerificationBadge {
  if (!v || (!v.verified && v.signature === '')) {
    return { state: 'unsigned', label: '', description: REASON_TEXT['gpg.error.not_signed_commit'], signer: null, key: null };
  }
  if (!v.verified) {
    return {
      state: 'unverified',
      label: 'Unverified',
      description: REASON_TEXT[v.reason] ?? v.reason,
      signer: null,
      key: null,
    };
  }
  const cut = v.reason.lastIndexOf(' / ');
  const key = cut >= 0 ? v.reason.slice(cut + 3) : null;
  const signer = signerText(v, cut >= 0 ? v.reason.slice(0, cut) : v.reason);
  const trust = v.trust_status ? TRUST[v.trust_status] : undefined;
  return {
    state: v.trust_status || 'verified',
    label: trust?.label ?? 'Verified',
    description: trust?.text ?? 'Signed by a verified key.',
    signer,
    key,
  };
}

function signerText(v: PayloadCommitVerificationDto, fromReason: string): string {
  const s = v.signer;
  if (!s) return fromReason;
  const who = s.username && s.username !== s.name ? `${s.name} (${s.username})` : s.name || s.username || fromReason;
  return s.email ? `${who} <${s.email}>` : who;
}
