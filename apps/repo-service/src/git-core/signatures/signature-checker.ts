import { Inject, Injectable } from '@nestjs/common';
import type { SigningGpgKey, SigningKeyOwner } from '@cairn/contracts';
import { parseSshSignature, verifySshSignature, type ParsedSshSignature } from '@cairn/platform';
import { REPO_SETTINGS, type RepoSettings } from '../../foundation/config/repo-settings.js';
import type { CommitSignature } from '@cairn/git';
import { InstanceSigningKeys, sshKeyLine } from './instance-keys.js';
import { PgpKeyCache, verifyPgp, type PgpSignature } from './openpgp-signature.js';
import { VerificationReason } from './verification-reasons.js';

const SSH_ARMOR = '-----BEGIN SSH SIGNATURE-----';
const GIT_NAMESPACE = 'git';

/** An account (by id) or the instance (SIGNING_NAME/EMAIL). */
export type SignerRef = { kind: 'user'; userId: number; email: string } | { kind: 'instance' };

/** Independent of the repository, so it can be cached per commit and keys; unverified carries Gitea's reason. */
export type SignatureOutcome =
  | { verified: true; signer: SignerRef; key: string }
  | { verified: false; reason: string };

export interface SignatureCheck {
  signature: CommitSignature;
  committerEmail: string;
  /** Primary, activated or no-reply; or null. */
  committer: SigningKeyOwner | null;
  /** Null for SSH signatures or when unreadable. */
  pgp: PgpSignature | null;
  /** By key id (primary or subkey), or null. */
  gpgKeyOwner: (keyId: string) => SigningKeyOwner | null;
}

const fail = (reason: string): SignatureOutcome => ({ verified: false, reason });

/** Gitea 1.25's `ParseCommitWithSignature` order: committer's keys, TRUSTED_SSH_KEYS, instance key; never throws. */
@Injectable()
export class SignatureChecker {
  private readonly pgpKeys = new PgpKeyCache();

  constructor(
    @Inject(REPO_SETTINGS) private readonly settings: RepoSettings,
    private readonly instance: InstanceSigningKeys,
  ) {}

  static isSsh(signature: CommitSignature): boolean {
    return signature.armored.startsWith(SSH_ARMOR);
  }

  async check(c: SignatureCheck): Promise<SignatureOutcome> {
    if (c.signature.tooLarge) return fail(VerificationReason.extractSign);
    if (SignatureChecker.isSsh(c.signature)) return this.checkSsh(c);
    return this.checkPgp(c);
  }


  private async checkSsh(c: SignatureCheck): Promise<SignatureOutcome> {
    let parsed: ParsedSshSignature;
    try {
      parsed = parseSshSignature(c.signature.armored);
    } catch {
      return fail(VerificationReason.extractSign);
    }
    const keyType = parsed.publicKey.type as string;
    if (
      !(this.settings.sshAllowedKeyTypes as string[]).includes(keyType) ||
      !(this.settings.sshAllowedHashAlgorithms as string[]).includes(parsed.hashAlgorithm)
    ) {
      return fail(VerificationReason.noKeyFound);
    }
    // The signature carries its key: only a candidate with that key can verify it.
    const signedBy = parsed.publicKeyContent;
    const candidates: Array<{ line: string | null; signer: () => SignerRef }> = [];
    if (c.committer) {
      const owner = c.committer;
      for (const k of owner.sshKeys) {
        candidates.push({ line: sshKeyLine(k.content), signer: () => ({ kind: 'user', userId: owner.user.id, email: c.committerEmail }) });
      }
    }
    for (const line of this.instance.trustedSshKeys) candidates.push({ line, signer: () => ({ kind: 'instance' }) });
    const instanceKey = await this.instance.instanceSshKey();
    if (instanceKey) candidates.push({ line: instanceKey, signer: () => ({ kind: 'instance' }) });

    const match = candidates.find((k) => k.line === signedBy);
    if (!match) return fail(VerificationReason.noKeyFound);
    const result = verifySshSignature(c.signature.armored, c.signature.payload, GIT_NAMESPACE, [signedBy]);
    if (!result.ok) return fail(VerificationReason.noKeyFound);
    return { verified: true, signer: match.signer(), key: parsed.fingerprint };
  }


  private async checkPgp(c: SignatureCheck): Promise<SignatureOutcome> {
    const sig = c.pgp;
    if (!sig) return fail(VerificationReason.extractSign);
    let defaultReason: string = VerificationReason.noKeyFound;

    // 1. The key the signature names, whoever owns it.
    const byKeyId = await this.forKeyId(sig, c, sig.keyId, '');
    if (byKeyId) {
      if (byKeyId.verified || byKeyId.reason !== VerificationReason.badSignature) return byKeyId;
      defaultReason = byKeyId.reason;
    }

    // 2. The committer's own keys: verified ones when the committer's address is one of their activated ones, or
    //    those listing the committer's address.
    if (c.committer) {
      const email = c.committerEmail.toLowerCase();
      const activated = c.committer.activatedEmails.includes(email);
      for (const key of c.committer.gpgKeys) {
        if (!(key.verified && activated) && !key.emails.includes(email)) continue;
        const out = await this.tryKey(sig, c, key.armored, { kind: 'user', userId: c.committer.user.id, email: c.committerEmail });
        if (out) return out;
      }
    }

    // 3. The instance key (SIGNING_FORMAT = openpgp): first as some account's uploaded key, then as exported.
    const instance = await this.instance.instanceGpgKey();
    if (instance) {
      const out = await this.forInstanceKey(sig, c, instance.keyId, instance.armored);
      if (out) {
        if (out.verified || out.reason !== VerificationReason.badSignature) return out;
        defaultReason = out.reason;
      }
    }
    return fail(defaultReason);
  }

  /** Gitea's `HashAndVerifyForKeyID`: null when no account has the key; the bad-signature reason when it fails. */
  private async forKeyId(sig: PgpSignature, c: SignatureCheck, keyId: string, wantEmail: string): Promise<SignatureOutcome | null> {
    if (!keyId) return null;
    const owner = c.gpgKeyOwner(keyId);
    const key = owner?.gpgKeys.find((k) => k.keyId === keyId || k.subkeyIds.includes(keyId));
    if (!owner || !key) return null;
    const email = keyEmail(key, owner, wantEmail);
    if (email !== null) {
      const out = await this.tryKey(sig, c, key.armored, { kind: 'user', userId: owner.user.id, email });
      if (out) return out;
    }
    return fail(VerificationReason.badSignature);
  }

  /** Gitea's `VerifyWithGPGSettings` for the instance key. */
  private async forInstanceKey(
    sig: PgpSignature,
    c: SignatureCheck,
    keyId: string,
    armored: string,
  ): Promise<SignatureOutcome | null> {
    const uploaded = await this.forKeyId(sig, c, keyId, this.instance.signer.email);
    if (uploaded) return uploaded;
    const keys = await this.pgpKeys.read(armored);
    if (!keys) return fail(VerificationReason.generateHash);
    for (const key of keys) {
      if (!sig.hashAccepted) return fail(VerificationReason.generateHash);
      const verifiedBy = await verifyPgp(sig, c.signature.payload, key);
      if (verifiedBy) return { verified: true, signer: { kind: 'instance' }, key: verifiedBy };
      if (sig.keyId && sig.keyId === key.getKeyID().toHex().toUpperCase()) return fail(VerificationReason.badSignature);
    }
    return null;
  }

  private async tryKey(sig: PgpSignature, c: SignatureCheck, armored: string, signer: SignerRef): Promise<SignatureOutcome | null> {
    if (!sig.hashAccepted) return fail(VerificationReason.generateHash);
    const keys = await this.pgpKeys.read(armored);
    for (const key of keys ?? []) {
      const verifiedBy = await verifyPgp(sig, c.signature.payload, key);
      if (verifiedBy) return { verified: true, signer, key: verifiedBy };
    }
    return null;
  }
}

/** Gitea's `checkKeyEmails`; null when there is none. */
function keyEmail(key: SigningGpgKey, owner: SigningKeyOwner, want: string): string | null {
  const wanted = want.toLowerCase();
  const own = key.emails.find((e) => !wanted || e === wanted);
  if (own) return own;
  if (!key.verified) return null;
  const activated = owner.activatedEmails.find((e) => !wanted || e === wanted);
  if (activated) return activated;
  return wanted && owner.noReplyEmail === wanted ? owner.noReplyEmail : null;
}
