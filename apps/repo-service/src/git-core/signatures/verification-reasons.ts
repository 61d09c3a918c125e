/** Gitea's verification reasons (i18n keys its clients know); a verified commit's reason is `<signer> / <key>`. */
export const VerificationReason = {
  notSigned: 'gpg.error.not_signed_commit',
  /** The signature cannot be read (also: larger than Cairn reads). */
  extractSign: 'gpg.error.extract_sign',
  /** The signature's hash cannot be computed (an algorithm that is not accepted). */
  generateHash: 'gpg.error.generate_hash',
  noKeyFound: 'gpg.error.no_gpg_keys_found',
  /** The signature names a key id that is known, but that key does not verify it. */
  badSignature: 'gpg.error.probable_bad_signature',
  /** The keys could not be fetched (identity-service did not answer). */
  failedRetrieval: 'gpg.error.failed_retrieval_gpg_keys',
} as const;

/** The reason of a verified signature: the signer's name and the key (id or `SHA256:` fingerprint). */
export function verifiedReason(signerName: string, key: string): string {
  return `${signerName} / ${key}`;
}
