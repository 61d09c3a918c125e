import { generateKeyPairSync } from 'node:crypto';
import sshpk from 'sshpk';
import { describe, expect, it } from 'vitest';
import { keySizeProblem, parseAuthorizedKey, parseKeyBlob } from './key-rules.js';

const GITEA_MINIMUMS = { ed25519: 256, ecdsa: 256, rsa: 3071, dsa: -1 };

function rsaKey(bits: number): string {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }) as string, 'pem').toString('ssh');
}
function generated(type: 'ed25519' | 'ecdsa', comment = 'me@example.com'): string {
  // Narrowed per kind: the typings declare one overload each.
  const key = (type === 'ecdsa' ? sshpk.generatePrivateKey(type) : sshpk.generatePrivateKey(type)).toPublic();
  key.comment = comment;
  return key.toString('ssh');
}

describe('SSH public key rules', () => {
  it('normalises a key to "type base64" and fingerprints it like ssh-keygen', () => {
    const text = generated('ed25519');
    const parsed = parseAuthorizedKey(`  ${text}\n`)!;
    expect(parsed.algorithm).toBe('ed25519');
    expect(parsed.bits).toBe(256);
    expect(parsed.content).toBe(text.split(' ').slice(0, 2).join(' '));
    expect(parsed.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });

  it('refuses what is not a public key', () => {
    expect(parseAuthorizedKey('')).toBeNull();
    expect(parseAuthorizedKey('ssh-rsa not-base64!')).toBeNull();
    expect(parseAuthorizedKey('hello world')).toBeNull();
    const priv = sshpk.generatePrivateKey('ed25519').toString('openssh');
    expect(parseAuthorizedKey(priv)).toBeNull();
  });

  it('applies Gitea default minimum sizes: RSA needs 3071 bits', () => {
    expect(keySizeProblem(parseAuthorizedKey(rsaKey(2048))!, GITEA_MINIMUMS)).toBe(
      'rsa key of 2048 bits is too small: the minimum is 3071 bits',
    );
    expect(keySizeProblem(parseAuthorizedKey(rsaKey(3072))!, GITEA_MINIMUMS)).toBeNull();
  });

  it('accepts ed25519 and ecdsa P-256 and refuses disabled or unknown types', () => {
    expect(keySizeProblem(parseAuthorizedKey(generated('ed25519'))!, GITEA_MINIMUMS)).toBeNull();
    const ecdsa = parseAuthorizedKey(generated('ecdsa'))!;
    expect(ecdsa.bits).toBeGreaterThanOrEqual(256);
    expect(keySizeProblem(ecdsa, GITEA_MINIMUMS)).toBeNull();
    expect(keySizeProblem({ algorithm: 'dsa', bits: 1024 }, GITEA_MINIMUMS)).toBe('dsa keys are not allowed');
    expect(keySizeProblem({ algorithm: 'ed25519', bits: 256 }, { ...GITEA_MINIMUMS, ed25519: -1 })).toBe(
      'ed25519 keys are not allowed',
    );
    expect(keySizeProblem({ algorithm: 'curve448', bits: 448 }, GITEA_MINIMUMS)).toBe('curve448 keys are not allowed');
  });

  it('parses the wire blob an SSH client offers to the same fingerprint', () => {
    const parsed = parseAuthorizedKey(generated('ed25519'))!;
    const blob = parsed.content.split(' ')[1];
    expect(parseKeyBlob(blob)?.fingerprint).toBe(parsed.fingerprint);
    expect(parseKeyBlob('')).toBeNull();
    expect(parseKeyBlob('AAAA')).toBeNull();
  });
});
