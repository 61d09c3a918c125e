import { describe, expect, it } from 'vitest';
import { MESSAGE, FIXTURES } from './sshsig.fixtures.js';
import { MAX_SSH_SIGNATURE_LENGTH, parseSshSignature, SshSignatureError, verifySshSignature } from './sshsig.js';

const message = Buffer.from(MESSAGE);

function armor(body: Buffer): string {
  const b64 = body.toString('base64').replace(/(.{70})/g, '$1\n');
  return `-----BEGIN SSH SIGNATURE-----\n${b64}\n-----END SSH SIGNATURE-----\n`;
}

function body(armored: string): Buffer {
  return Buffer.from(armored.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
}

function wireString(s: string | Buffer): Buffer {
  const b = Buffer.from(s);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(b.length);
  return Buffer.concat([len, b]);
}

describe('verifySshSignature (signatures by ssh-keygen -Y sign)', () => {
  it.each(['ed25519', 'ecdsaP256', 'ecdsaP384', 'rsaSha512', 'rsaHashSha256'] as const)('accepts a good %s signature', (name) => {
    const { publicKey, signature } = FIXTURES[name];
    const result = verifySshSignature(signature, message, 'gitea', [publicKey]);
    expect(result).toEqual({ ok: true, fingerprint: expect.stringMatching(/^SHA256:/), reason: '' });
    expect(result.fingerprint).toBe(parseSshSignature(signature).fingerprint);
  });

  it('reads the envelope fields', () => {
    const parsed = parseSshSignature(FIXTURES.rsaSha512.signature);
    expect(parsed.namespace).toBe('gitea');
    expect(parsed.hashAlgorithm).toBe('sha512');
    expect(parsed.signatureType).toBe('rsa-sha2-512');
    expect(parsed.publicKeyContent).toBe(FIXTURES.rsaSha512.publicKey);
    expect(parseSshSignature(FIXTURES.rsaHashSha256.signature).hashAlgorithm).toBe('sha256');
  });

  it('accepts an allowed key given by fingerprint, and no allow-list at all', () => {
    const { signature } = FIXTURES.ed25519;
    const fp = parseSshSignature(signature).fingerprint;
    expect(verifySshSignature(signature, message, 'gitea', [fp]).ok).toBe(true);
    expect(verifySshSignature(signature, message, 'gitea').ok).toBe(true);
  });

  it('refuses another message', () => {
    for (const name of ['ed25519', 'ecdsaP256', 'rsaSha512'] as const) {
      const result = verifySshSignature(FIXTURES[name].signature, Buffer.from('something else'), 'gitea');
      expect(result.ok).toBe(false);
      expect(result.reason).toBe('the signature does not match');
    }
  });

  it('refuses a key outside the allow-list', () => {
    const result = verifySshSignature(FIXTURES.ed25519.signature, message, 'gitea', [FIXTURES.rsaSha512.publicKey, 'garbage']);
    expect(result).toMatchObject({ ok: false, reason: 'the signature was made by a different key' });
  });

  it('refuses the wrong namespace', () => {
    const result = verifySshSignature(FIXTURES.ed25519FileNamespace.signature, message, 'gitea');
    expect(result).toMatchObject({ ok: false, reason: 'wrong signature namespace "file" (expected "gitea")' });
  });

  it('refuses a tampered signature blob', () => {
    const raw = body(FIXTURES.ed25519.signature);
    raw[raw.length - 5] ^= 0x01;
    expect(verifySshSignature(armor(raw), message, 'gitea')).toMatchObject({ ok: false, reason: 'the signature does not match' });
  });
});

describe('parseSshSignature (hostile input)', () => {
  const good = body(FIXTURES.ed25519.signature);

  function reason(armored: string): string {
    const result = verifySshSignature(armored, message, 'gitea');
    expect(result.ok).toBe(false);
    return result.reason;
  }

  it('refuses text that is not an armored signature', () => {
    expect(reason('')).toMatch(/not an armored SSH signature/);
    expect(reason('-----BEGIN PGP SIGNATURE-----\nabc\n-----END PGP SIGNATURE-----')).toMatch(/not an armored SSH signature/);
    expect(reason('-----BEGIN SSH SIGNATURE-----\n!!!\n-----END SSH SIGNATURE-----')).toBe('the SSH signature is not valid base64');
    expect(reason(`junk${FIXTURES.ed25519.signature}`)).toMatch(/not an armored SSH signature/);
    expect(() => parseSshSignature(42 as unknown as string)).toThrow(SshSignatureError);
  });

  it('refuses truncated envelopes at every length', () => {
    for (let n = 0; n < good.length; n++) {
      expect(() => parseSshSignature(armor(good.subarray(0, n)))).toThrow(SshSignatureError);
    }
  });

  it('refuses trailing data', () => {
    expect(reason(armor(Buffer.concat([good, Buffer.from([0])])))).toBe('trailing data after the SSH signature');
  });

  it('refuses a wrong magic and an unknown version', () => {
    const badMagic = Buffer.from(good);
    badMagic.write('SSHSIX', 0);
    expect(reason(armor(badMagic))).toBe('not an SSH signature (bad magic)');
    const badVersion = Buffer.from(good);
    badVersion.writeUInt32BE(2, 6);
    expect(reason(armor(badVersion))).toBe('unsupported SSH signature version 2');
  });

  it('refuses a huge signature before decoding it', () => {
    const huge = armor(Buffer.alloc(MAX_SSH_SIGNATURE_LENGTH, 1));
    expect(reason(huge)).toMatch(/too large/);
  });

  it('refuses a length field running past the end', () => {
    const lying = Buffer.from(good);
    lying.writeUInt32BE(0xffffffff, 10); // public key length
    expect(reason(armor(lying))).toMatch(/^truncated SSH signature/);
  });

  it('refuses unknown key, hash and signature algorithms', () => {
    const parsed = parseSshSignature(FIXTURES.ed25519.signature);
    const key = wireString(Buffer.concat([wireString('ssh-foo'), wireString(Buffer.alloc(32))]));
    const sig = wireString(Buffer.concat([wireString('ssh-ed25519'), wireString(Buffer.alloc(64))]));
    const envelope = (k: Buffer, hash: string, s: Buffer) =>
      armor(Buffer.concat([Buffer.from('SSHSIG'), Buffer.from([0, 0, 0, 1]), k, wireString('gitea'), wireString(''), wireString(hash), s]));
    const edKey = wireString(parsed.publicKey.toBuffer('rfc4253'));
    expect(reason(envelope(key, 'sha512', sig))).toBe('unsupported key type "ssh-foo"');
    expect(reason(envelope(edKey, 'md5', sig))).toBe('unsupported hash algorithm "md5"');
    const rsaSig = wireString(Buffer.concat([wireString('rsa-sha2-512'), wireString(Buffer.alloc(64))]));
    expect(reason(envelope(edKey, 'sha512', rsaSig))).toBe('signature type "rsa-sha2-512" does not match key type "ssh-ed25519"');
    // A well-formed envelope with a zeroed signature: read, then refused by the check itself.
    expect(reason(envelope(edKey, 'sha512', sig))).toBe('the signature does not match');
  });

  it('refuses SHA-1 RSA signatures (ssh-rsa), as OpenSSH does', () => {
    const parsed = parseSshSignature(FIXTURES.rsaSha512.signature);
    const rsaKey = wireString(parsed.publicKey.toBuffer('rfc4253'));
    const sha1Sig = wireString(Buffer.concat([wireString('ssh-rsa'), wireString(Buffer.alloc(384))]));
    const armored = armor(
      Buffer.concat([Buffer.from('SSHSIG'), Buffer.from([0, 0, 0, 1]), rsaKey, wireString('gitea'), wireString(''), wireString('sha512'), sha1Sig]),
    );
    expect(reason(armored)).toBe('SHA-1 RSA signatures (ssh-rsa) are not accepted');
  });
});
