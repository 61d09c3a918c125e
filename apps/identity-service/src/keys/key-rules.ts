import sshpk from 'sshpk';

export interface ParsedPublicKey {
  /** sshpk's type: rsa, ecdsa, ed25519, dsa. */
  algorithm: string;
  /** Key size in bits (modulus for RSA/DSA, curve size for ECDSA, 256 for Ed25519). */
  bits: number;
  /** `ssh-ed25519 AAAA…` without the comment. */
  content: string;
  /** `SHA256:…`, as `ssh-keygen -l` prints it. */
  fingerprint: string;
}

function normalise(key: sshpk.Key): ParsedPublicKey {
  const wireType = key.toString('ssh').split(' ')[0];
  const blob = key.toBuffer('rfc4253').toString('base64');
  return {
    algorithm: key.type,
    bits: key.size,
    content: `${wireType} ${blob}`,
    fingerprint: key.fingerprint('sha256').toString(),
  };
}

/** Parses an OpenSSH `authorized_keys`-style line; null when it is not a public key. */
export function parseAuthorizedKey(text: string): ParsedPublicKey | null {
  const line = text.trim();
  if (!line || line.includes('PRIVATE KEY')) return null;
  try {
    return normalise(sshpk.parseKey(line, 'ssh'));
  } catch {
    return null;
  }
}

/** Parses the wire-format blob an SSH client offers (base64 of RFC 4253 `string type, …`). */
export function parseKeyBlob(base64: string): ParsedPublicKey | null {
  try {
    const buf = Buffer.from(base64, 'base64');
    if (buf.length === 0) return null;
    return normalise(sshpk.parseKey(buf, 'rfc4253'));
  } catch {
    return null;
  }
}

/** Gitea's `[ssh.minimum_key_sizes]`: why the key is refused, or null; a type missing or set to -1 is refused. */
export function keySizeProblem(key: Pick<ParsedPublicKey, 'algorithm' | 'bits'>, minimums: Record<string, number>): string | null {
  const min = minimums[key.algorithm];
  if (min === undefined || min < 0) return `${key.algorithm} keys are not allowed`;
  if (key.bits < min) return `${key.algorithm} key of ${key.bits} bits is too small: the minimum is ${min} bits`;
  return null;
}
