import * as openpgp from 'openpgp';
import { MAX_ARMORED_GPG_KEY_LENGTH, MAX_ARMORED_SIGNATURE_LENGTH } from '@cairn/contracts';

/** Why an uploaded key or a signature was refused (the message is shown to the user). */
export class GpgKeyProblem extends Error {}

export interface ParsedGpgSubkey {
  /** 16 upper-case hex digits. */
  keyId: string;
  publicKey: string;
  createdAt: Date;
  expiresAt: Date | null;
  canSign: boolean;
  canEncrypt: boolean;
}

export interface ParsedGpgKey extends ParsedGpgSubkey {
  /** Lower-cased e-mails of the non-revoked user ids. */
  uidEmails: string[];
  subkeys: ParsedGpgSubkey[];
  key: openpgp.PublicKey;
}

/** Algorithms that cannot sign (Gitea reads capabilities from the algorithm, not from key flags). */
const NO_SIGN = new Set<string>(['rsaEncrypt', 'elgamal', 'ecdh', 'x25519', 'x448', 'aedh', 'pqc_mlkem_x25519']);
const ENCRYPT = new Set<string>(['rsaEncryptSign', 'rsaEncrypt', 'elgamal', 'ecdh', 'x25519', 'x448', 'aedh', 'pqc_mlkem_x25519']);
/** Keys per upload and subkeys per key: far beyond real keys, bounded against hostile ones. */
const MAX_KEYS = 8;
const MAX_SUBKEYS = 32;

export function formatKeyId(id: openpgp.KeyID): string {
  return id.toHex().toUpperCase().padStart(16, '0');
}

/** Gitea pads key ids to 16 digits (`key_id` of `/user/gpg_key_verify` may come without leading zeros). */
export function normaliseKeyId(raw: string): string | null {
  const trimmed = raw.trim().toUpperCase().replace(/^0+/, '');
  if (!/^[0-9A-F]{1,16}$/.test(trimmed)) return null;
  return trimmed.padStart(16, '0');
}

function expiry(value: Date | number | null): Date | null {
  return value instanceof Date && Number.isFinite(value.getTime()) ? value : null;
}

async function describe(k: openpgp.PublicKey | openpgp.Subkey, expiresAt: Date | null): Promise<ParsedGpgSubkey> {
  const algorithm = k.getAlgorithmInfo().algorithm;
  return {
    keyId: formatKeyId(k.getKeyID()),
    publicKey: Buffer.from(k.keyPacket.write()).toString('base64'),
    createdAt: k.getCreationTime(),
    expiresAt,
    canSign: !NO_SIGN.has(algorithm),
    canEncrypt: ENCRYPT.has(algorithm),
  };
}

/** The same key twice is merged, as Gitea does; anything that is not a usable public key throws `GpgKeyProblem`. */
export async function parseArmoredGpgKeys(armored: string): Promise<ParsedGpgKey[]> {
  if (armored.length > MAX_ARMORED_GPG_KEY_LENGTH) throw new GpgKeyProblem('the key is too large');
  if (armored.includes('-----BEGIN PGP PRIVATE KEY BLOCK-----')) {
    throw new GpgKeyProblem('failed to parse gpg key: this is a private key; upload the public key');
  }
  if (!armored.includes('-----BEGIN PGP PUBLIC KEY BLOCK-----')) {
    throw new GpgKeyProblem('failed to parse gpg key: not an armored public key block');
  }
  let keys: openpgp.Key[];
  try {
    keys = await openpgp.readKeys({ armoredKeys: armored });
  } catch (err) {
    throw new GpgKeyProblem(`failed to parse gpg key: ${err instanceof Error ? err.message : 'unreadable'}`);
  }
  if (keys.length === 0) throw new GpgKeyProblem('failed to parse gpg key: no key found');
  if (keys.length > MAX_KEYS) throw new GpgKeyProblem(`failed to parse gpg key: more than ${MAX_KEYS} keys`);
  const merged = new Map<string, openpgp.PublicKey>();
  for (const key of keys) {
    if (key.isPrivate()) throw new GpgKeyProblem('failed to parse gpg key: this is a private key; upload the public key');
    const id = formatKeyId(key.getKeyID());
    const seen = merged.get(id);
    if (seen) await seen.update(key as openpgp.PublicKey);
    else merged.set(id, key as openpgp.PublicKey);
  }
  const out: ParsedGpgKey[] = [];
  for (const key of merged.values()) {
    if (key.subkeys.length > MAX_SUBKEYS) throw new GpgKeyProblem(`failed to parse gpg key: more than ${MAX_SUBKEYS} subkeys`);
    let expiresAt: Date | null;
    try {
      await key.getPrimaryUser();
      expiresAt = expiry(await key.getExpirationTime());
    } catch (err) {
      throw new GpgKeyProblem(`failed to parse gpg key ${formatKeyId(key.getKeyID())}: ${err instanceof Error ? err.message : 'no valid user id'}`);
    }
    const uidEmails = new Set<string>();
    for (const user of key.users) {
      const email = user.userID?.email?.trim().toLowerCase();
      if (email && user.revocationSignatures.length === 0) uidEmails.add(email);
    }
    // Subkeys share the primary's expiry, as in Gitea.
    const subkeys = await Promise.all(key.subkeys.map((s) => describe(s, expiresAt)));
    out.push({ ...(await describe(key, expiresAt)), uidEmails: [...uidEmails], subkeys, key });
  }
  return out;
}

/** The id of the (sub)key whose detached signature covers one of `messages`, or null. */
export async function verifyTokenSignature(key: openpgp.PublicKey, armoredSignature: string, messages: string[]): Promise<string | null> {
  if (armoredSignature.length > MAX_ARMORED_SIGNATURE_LENGTH) return null;
  let signature: openpgp.Signature;
  try {
    signature = await openpgp.readSignature({ armoredSignature });
  } catch {
    return null;
  }
  for (const text of messages) {
    try {
      const message = await openpgp.createMessage({ binary: Buffer.from(text, 'utf8') });
      const { signatures } = await openpgp.verify({ message, signature, verificationKeys: key, expectSigned: false });
      for (const s of signatures) {
        try {
          await s.verified;
          return formatKeyId(s.keyID);
        } catch {
          // not this one
        }
      }
    } catch {
      // unusable signature or key: try the next variant
    }
  }
  return null;
}
