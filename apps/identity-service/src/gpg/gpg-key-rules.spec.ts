import * as openpgp from 'openpgp';
import { beforeAll, describe, expect, it } from 'vitest';
import { GpgKeyProblem, normaliseKeyId, parseArmoredGpgKeys, verifyTokenSignature } from './gpg-key-rules.js';

describe('normaliseKeyId', () => {
  it('pads to 16 upper-case digits and refuses anything else', () => {
    expect(normaliseKeyId('00a8be85f2b9e86e38')).toBe('A8BE85F2B9E86E38');
    expect(normaliseKeyId('1234')).toBe('0000000000001234');
    expect(normaliseKeyId('0')).toBeNull();
    expect(normaliseKeyId('XYZ')).toBeNull();
    expect(normaliseKeyId('1'.repeat(17))).toBeNull();
  });
});

describe('parseArmoredGpgKeys and verifyTokenSignature', () => {
  let priv: openpgp.PrivateKey;
  let pub: string;

  beforeAll(async () => {
    const { privateKey, publicKey } = await openpgp.generateKey({
      type: 'ecc',
      userIDs: [{ name: 'Alice', email: 'Alice@Example.com' }, { name: 'Work', email: 'alice@work.test' }],
      format: 'armored',
      keyExpirationTime: 3600,
    });
    priv = await openpgp.readPrivateKey({ armoredKey: privateKey });
    pub = publicKey;
  });

  it('reads ids, e-mails (lower case), capabilities and expiry; the same key twice is one key', async () => {
    const [key, ...rest] = await parseArmoredGpgKeys(`${pub}\n${pub}`);
    expect(rest).toEqual([]);
    expect(key.keyId).toBe(priv.getKeyID().toHex().toUpperCase());
    expect(key.uidEmails.sort()).toEqual(['alice@example.com', 'alice@work.test']);
    expect(key).toMatchObject({ canSign: true, canEncrypt: false });
    expect(key.subkeys).toHaveLength(1);
    expect(key.subkeys[0]).toMatchObject({ canSign: false, canEncrypt: true });
    expect(key.expiresAt!.getTime() - key.createdAt.getTime()).toBe(3600_000);
    expect(key.subkeys[0].expiresAt).toEqual(key.expiresAt);
  });

  it('refuses private keys, garbage and oversized input with a message', async () => {
    await expect(parseArmoredGpgKeys(priv.armor())).rejects.toThrow(/private key/);
    await expect(parseArmoredGpgKeys('hello')).rejects.toBeInstanceOf(GpgKeyProblem);
    await expect(parseArmoredGpgKeys('-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nAAAA\n-----END PGP PUBLIC KEY BLOCK-----')).rejects.toBeInstanceOf(GpgKeyProblem);
    await expect(parseArmoredGpgKeys(`-----BEGIN PGP PUBLIC KEY BLOCK-----${'A'.repeat(70_000)}`)).rejects.toThrow(/too large/);
  });

  it('accepts a detached signature over the token (or a line-end variant), by the key only', async () => {
    const [key] = await parseArmoredGpgKeys(pub);
    const sign = async (text: string) =>
      openpgp.sign({ message: await openpgp.createMessage({ binary: Buffer.from(text) }), signingKeys: priv, detached: true }) as Promise<string>;
    const signature = await sign('token\n');
    expect(await verifyTokenSignature(key.key, signature, ['token', 'token\n'])).toBe(key.keyId);
    expect(await verifyTokenSignature(key.key, signature, ['token'])).toBeNull();
    expect(await verifyTokenSignature(key.key, 'garbage', ['token'])).toBeNull();
    const other = await openpgp.generateKey({ type: 'ecc', userIDs: [{ email: 'x@y.test' }], format: 'object' });
    const [otherKey] = await parseArmoredGpgKeys(other.publicKey.armor());
    expect(await verifyTokenSignature(otherKey.key, signature, ['token\n'])).toBeNull();
  });
});
