import { parsers } from '@cairn/platform';

/** When Cairn signs a commit it creates (Gitea's rule names; a list is "all must hold"). */
export type SigningRule =
  | 'always' | 'never' | 'pubkey' | 'twofa' | 'parentsigned' | 'basesigned' | 'headsigned' | 'commitssigned' | 'approved';
export type SigningFormat = 'openpgp' | 'ssh';
export type TrustModel = 'collaborator' | 'committer' | 'collaboratorcommitter';
/** SSH key types and SSHSIG hash algorithms signature verification may accept (Cairn additions). */
export const SSH_SIGNATURE_KEY_TYPES = ['ed25519', 'ecdsa', 'rsa'] as const;
export type SshSignatureKeyType = (typeof SSH_SIGNATURE_KEY_TYPES)[number];
export const SSH_SIGNATURE_HASHES = ['sha256', 'sha512'] as const;
export type SshSignatureHash = (typeof SSH_SIGNATURE_HASHES)[number];

const subsetOf =
  <T extends string>(allowed: readonly T[]) =>
  (raw: string): T[] => {
    const out = parsers.list(raw.toLowerCase()) as T[];
    const bad = out.filter((v) => !allowed.includes(v));
    if (bad.length) throw new Error(`unknown value(s) ${bad.join(', ')}; expected some of: ${allowed.join(', ')}`);
    if (out.length === 0) throw new Error(`expected at least one of: ${allowed.join(', ')}`);
    return out;
  };

const rules =
  (...allowed: SigningRule[]) =>
  (raw: string): SigningRule[] => {
    const out = parsers.list(raw.toLowerCase()) as SigningRule[];
    const bad = out.filter((r) => !allowed.includes(r));
    if (bad.length) throw new Error(`unknown rule(s) ${bad.join(', ')}; expected some of: ${allowed.join(', ')}`);
    return out.length ? out : ['never'];
  };

/** `[repository.signing]` (Gitea's names and defaults): the instance key, when it signs, how signatures are trusted. */
export const signingSettingsSpec = {
  /**
   * `none`, `default` (git config), a GPG key id (GNUPGHOME, else ~/.gnupg), or the absolute path of an SSH public key
   * (private key beside it); checked at start.
   */
  signingKey: { section: 'repository.signing', key: 'SIGNING_KEY', default: 'default', parse: (raw: string) => raw.trim() },
  /** The instance key's name and e-mail: the committer of signed commits and the signer shown for instance signatures. */
  signingName: { section: 'repository.signing', key: 'SIGNING_NAME', default: '', parse: (raw: string) => raw.trim() },
  /** The instance key's e-mail (see SIGNING_NAME). */
  signingEmail: { section: 'repository.signing', key: 'SIGNING_EMAIL', default: '', parse: (raw: string) => raw.trim() },
  /** `openpgp` or `ssh`: the format of the instance key (git's `gpg.format`). */
  signingFormat: {
    section: 'repository.signing',
    key: 'SIGNING_FORMAT',
    default: 'openpgp' as SigningFormat,
    parse: parsers.oneOf<SigningFormat>('openpgp', 'ssh'),
  },
  /** When `auto_init` commits are signed: `always`, `never`, `pubkey` (the user has a GPG key), `twofa` (two-factor enrolled); all must hold. */
  initialCommit: {
    section: 'repository.signing',
    key: 'INITIAL_COMMIT',
    default: ['always'] as SigningRule[],
    parse: rules('always', 'never', 'pubkey', 'twofa'),
  },
  /** When file changes through the API are signed: the initial-commit rules plus `parentsigned` (the parent commit verifies). */
  crudActions: {
    section: 'repository.signing',
    key: 'CRUD_ACTIONS',
    default: ['pubkey', 'twofa', 'parentsigned'] as SigningRule[],
    parse: rules('always', 'never', 'pubkey', 'twofa', 'parentsigned'),
  },
  /** When merges are signed: the initial-commit rules plus `basesigned`, `headsigned`, `commitssigned`, `approved`. */
  merges: {
    section: 'repository.signing',
    key: 'MERGES',
    default: ['pubkey', 'twofa', 'basesigned', 'commitssigned'] as SigningRule[],
    parse: rules('always', 'never', 'pubkey', 'twofa', 'basesigned', 'headsigned', 'commitssigned', 'approved'),
  },
  /** The trust model of repositories whose own is `default`. */
  defaultTrustModel: {
    section: 'repository.signing',
    key: 'DEFAULT_TRUST_MODEL',
    default: 'collaborator' as TrustModel,
    parse: parsers.oneOf<TrustModel>('collaborator', 'committer', 'collaboratorcommitter'),
  },
  /** Public keys (`ssh-ed25519 AAAA…`, comma-separated) trusted for every commit; the signer is SIGNING_NAME/EMAIL. */
  trustedSshKeys: { section: 'repository.signing', key: 'TRUSTED_SSH_KEYS', default: [] as string[], parse: parsers.list },
  /** Cairn: the SSH key types whose commit signatures verify (a signature by another type is unverified). */
  sshAllowedKeyTypes: {
    section: 'repository.signing',
    key: 'SSH_ALLOWED_KEY_TYPES',
    default: ['ed25519', 'ecdsa', 'rsa'] as SshSignatureKeyType[],
    parse: subsetOf(SSH_SIGNATURE_KEY_TYPES),
  },
  /** Cairn: the SSHSIG message hash algorithms whose commit signatures verify. */
  sshAllowedHashAlgorithms: {
    section: 'repository.signing',
    key: 'SSH_ALLOWED_HASH_ALGORITHMS',
    default: ['sha256', 'sha512'] as SshSignatureHash[],
    parse: subsetOf(SSH_SIGNATURE_HASHES),
  },
};
