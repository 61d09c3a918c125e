import { createHash } from 'node:crypto';
import * as openpgp from 'openpgp';
import { LruCache } from '@cairn/platform';

export interface PgpSignature {
  signature: openpgp.Signature;
  /** The issuer key id (16 upper-case hex digits), or '' when the signature names none. */
  keyId: string;
  /** False when the message hash algorithm is not one openpgp.js accepts (Gitea: `gpg.error.generate_hash`). */
  hashAccepted: boolean;
}

/** Hash algorithms openpgp.js refuses for data signatures by default (MD5, RIPEMD-160, SHA-1). */
const REJECTED_HASHES = openpgp.config.rejectMessageHashAlgorithms;

export async function readPgpSignature(armored: string): Promise<PgpSignature> {
  const signature = await openpgp.readSignature({ armoredSignature: armored });
  const packet = signature.packets[0];
  if (!packet || signature.packets.length !== 1) throw new Error('expected exactly one signature packet');
  const ids = signature.getSigningKeyIDs();
  const hex = ids.length ? ids[0].toHex().toUpperCase() : '';
  const keyId = /^0+$/.test(hex) ? '' : hex; // all zeros: the wildcard id (no issuer named)
  const hash = packet.hashAlgorithm;
  const hashAccepted = hash !== null && !REJECTED_HASHES.has(hash) && isKnownHash(hash);
  return { signature, keyId, hashAccepted };
}

function isKnownHash(hash: number): boolean {
  return Object.values(openpgp.enums.hash).includes(hash);
}

/** Parsed public keys by content: reading a key costs more than verifying with it. Bounded; unreadable: null. */
export class PgpKeyCache {
  private readonly keys: LruCache<Promise<openpgp.PublicKey[] | null>>;

  constructor(maxEntries = 1_000) {
    this.keys = new LruCache(maxEntries);
  }

  /** The keys of an armored block (several keys may be uploaded at once), or null when it cannot be read. */
  read(armored: string): Promise<openpgp.PublicKey[] | null> {
    const id = createHash('sha256').update(armored).digest('base64');
    let hit = this.keys.get(id);
    if (!hit) {
      hit = openpgp
        .readKeys({ armoredKeys: armored })
        .then((keys) => keys.map((k) => k.toPublic()))
        .catch(() => null);
      this.keys.set(id, hit);
    }
    return hit;
  }
}

/** The (sub)key the signature names and which may sign; answers the id that verified it, or null. */
export async function verifyPgp(sig: PgpSignature, payload: Buffer, key: openpgp.PublicKey): Promise<string | null> {
  try {
    const message = await openpgp.createMessage({ binary: payload });
    const result = await openpgp.verify({ message, signature: sig.signature, verificationKeys: key, format: 'binary' });
    const [first] = result.signatures;
    if (!first) return null;
    await first.verified;
    return first.keyID.toHex().toUpperCase();
  } catch {
    return null;
  }
}
