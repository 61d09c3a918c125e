import { createHash, createPublicKey, verify } from 'node:crypto';
import sshpk from 'sshpk';

/** OpenSSH signatures (`ssh-keygen -Y sign`), per OpenSSH's PROTOCOL.sshsig. */

const MAGIC = Buffer.from('SSHSIG', 'ascii');
const BEGIN = '-----BEGIN SSH SIGNATURE-----';
const END = '-----END SSH SIGNATURE-----';
/** An RSA-16384 key and signature fit with room to spare. */
export const MAX_SSH_SIGNATURE_LENGTH = 16 * 1024;
const HASH_ALGORITHMS = new Set(['sha256', 'sha512']);
/** `ssh-rsa` (SHA-1) is refused, as OpenSSH does for SSHSIG. */
const SIGNATURE_TYPES: Record<string, readonly string[]> = {
  'ssh-ed25519': ['ssh-ed25519'],
  'ssh-rsa': ['rsa-sha2-256', 'rsa-sha2-512'],
  'ecdsa-sha2-nistp256': ['ecdsa-sha2-nistp256'],
  'ecdsa-sha2-nistp384': ['ecdsa-sha2-nistp384'],
  'ecdsa-sha2-nistp521': ['ecdsa-sha2-nistp521'],
};

export class SshSignatureError extends Error {}

export interface ParsedSshSignature {
  publicKey: sshpk.Key;
  publicKeyContent: string;
  fingerprint: string;
  namespace: string;
  hashAlgorithm: string;
  signature: sshpk.Signature;
  signatureType: string;
  reserved: Buffer;
}

export interface SshVerifyResult {
  ok: boolean;
  /** Empty when the envelope could not be read. */
  fingerprint: string;
  reason: string;
}

/** Refuses any length that runs past the end. */
class WireReader {
  private offset = 0;
  constructor(private readonly buf: Buffer) {}

  bytes(n: number, what: string): Buffer {
    if (n < 0 || this.offset + n > this.buf.length) throw new SshSignatureError(`truncated SSH signature (${what})`);
    const out = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  uint32(what: string): number {
    return this.bytes(4, what).readUInt32BE(0);
  }

  string(what: string): Buffer {
    return this.bytes(this.uint32(what), what);
  }

  get done(): boolean {
    return this.offset === this.buf.length;
  }
}

function wireString(data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length, 0);
  return Buffer.concat([len, body]);
}

function dearmor(armored: string): Buffer {
  if (typeof armored !== 'string') throw new SshSignatureError('the SSH signature must be text');
  if (armored.length > MAX_SSH_SIGNATURE_LENGTH) {
    throw new SshSignatureError(`the SSH signature is too large (at most ${MAX_SSH_SIGNATURE_LENGTH} characters)`);
  }
  const text = armored.trim();
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin !== 0 || end < 0 || end + END.length !== text.length) {
    throw new SshSignatureError(`not an armored SSH signature (expected ${BEGIN} … ${END})`);
  }
  const body = text.slice(BEGIN.length, end).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length === 0) {
    throw new SshSignatureError('the SSH signature is not valid base64');
  }
  return Buffer.from(body, 'base64');
}

export function parseSshSignature(armored: string): ParsedSshSignature {
  const reader = new WireReader(dearmor(armored));
  if (!reader.bytes(MAGIC.length, 'magic').equals(MAGIC)) throw new SshSignatureError('not an SSH signature (bad magic)');
  const version = reader.uint32('version');
  if (version !== 1) throw new SshSignatureError(`unsupported SSH signature version ${version}`);
  const keyBlob = reader.string('public key');
  const namespace = reader.string('namespace').toString('utf8');
  const reserved = reader.string('reserved');
  const hashAlgorithm = reader.string('hash algorithm').toString('utf8');
  const sigBlob = reader.string('signature');
  if (!reader.done) throw new SshSignatureError('trailing data after the SSH signature');
  if (!HASH_ALGORITHMS.has(hashAlgorithm)) throw new SshSignatureError(`unsupported hash algorithm "${hashAlgorithm}"`);

  const keyType = new WireReader(keyBlob).string('key type').toString('utf8');
  const allowedSigTypes = SIGNATURE_TYPES[keyType];
  if (!allowedSigTypes) throw new SshSignatureError(`unsupported key type "${keyType}"`);
  const sigReader = new WireReader(sigBlob);
  const signatureType = sigReader.string('signature type').toString('utf8');
  sigReader.string('signature blob');
  if (!sigReader.done) throw new SshSignatureError('trailing data after the inner signature');
  if (signatureType === 'ssh-rsa') throw new SshSignatureError('SHA-1 RSA signatures (ssh-rsa) are not accepted');
  if (!allowedSigTypes.includes(signatureType)) {
    throw new SshSignatureError(`signature type "${signatureType}" does not match key type "${keyType}"`);
  }

  let publicKey: sshpk.Key;
  let signature: sshpk.Signature;
  try {
    publicKey = sshpk.parseKey(keyBlob, 'rfc4253');
  } catch {
    throw new SshSignatureError('the public key in the SSH signature cannot be read');
  }
  try {
    signature = sshpk.parseSignature(sigBlob, publicKey.type as sshpk.AlgorithmType, 'ssh');
  } catch {
    throw new SshSignatureError('the inner signature cannot be read');
  }
  return {
    publicKey,
    publicKeyContent: `${keyType} ${publicKey.toBuffer('rfc4253').toString('base64')}`,
    fingerprint: publicKey.fingerprint('sha256').toString(),
    namespace,
    hashAlgorithm,
    signature,
    signatureType,
    reserved,
  };
}

export function signedData(parsed: Pick<ParsedSshSignature, 'namespace' | 'reserved' | 'hashAlgorithm'>, message: Buffer): Buffer {
  const digest = createHash(parsed.hashAlgorithm).update(message).digest();
  return Buffer.concat([
    MAGIC,
    wireString(parsed.namespace),
    wireString(parsed.reserved),
    wireString(parsed.hashAlgorithm),
    wireString(digest),
  ]);
}

/** With `allowed` (key lines or `SHA256:` fingerprints) the key must be one of them. Never throws on hostile input. */
export function verifySshSignature(armored: string, message: Buffer, namespace: string, allowed?: readonly string[]): SshVerifyResult {
  let parsed: ParsedSshSignature;
  try {
    parsed = parseSshSignature(armored);
  } catch (err) {
    return { ok: false, fingerprint: '', reason: err instanceof SshSignatureError ? err.message : 'the SSH signature cannot be read' };
  }
  const fingerprint = parsed.fingerprint;
  if (parsed.namespace !== namespace) {
    return { ok: false, fingerprint, reason: `wrong signature namespace "${parsed.namespace}" (expected "${namespace}")` };
  }
  if (allowed && !allowed.some((k) => sameKey(k, parsed))) {
    return { ok: false, fingerprint, reason: 'the signature was made by a different key' };
  }
  let valid: boolean;
  try {
    // node:crypto, not sshpk: sshpk checks ed25519 in pure JavaScript (~10 ms a signature), and pages of commits are
    // checked.
    const type = parsed.publicKey.type;
    const hashAlgo = type === 'ed25519' ? null : (parsed.signature.hashAlgorithm ?? parsed.publicKey.defaultHashAlgorithm());
    const key = createPublicKey(parsed.publicKey.toString('pkcs8'));
    const signature = parsed.signature.toBuffer(type === 'ecdsa' ? 'asn1' : 'raw');
    valid = verify(hashAlgo, signedData(parsed, message), key, signature);
  } catch {
    valid = false;
  }
  return valid ? { ok: true, fingerprint, reason: '' } : { ok: false, fingerprint, reason: 'the signature does not match' };
}

function sameKey(allowed: string, parsed: ParsedSshSignature): boolean {
  const text = allowed.trim();
  if (text.startsWith('SHA256:')) return text === parsed.fingerprint;
  try {
    return sshpk.parseKey(text, 'ssh').fingerprint('sha256').toString() === parsed.fingerprint;
  } catch {
    return false;
  }
}
