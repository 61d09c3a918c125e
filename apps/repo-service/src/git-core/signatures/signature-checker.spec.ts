import { describe, expect, it } from 'vitest';
import type { SigningGpgKey, SigningKeyOwner } from '@cairn/contracts';
import { loadRepoSettings } from '../../foundation/config/repo-settings.js';
import { parseCommitObject } from '@cairn/git';
import { InstanceSigningKey } from '../signing/instance-key.js';
import { InstanceSigningKeys } from './instance-keys.js';
import { readPgpSignature } from './openpgp-signature.js';
import { SignatureChecker, type SignatureOutcome } from './signature-checker.js';
import { COMMITS, GPG_KEYS, SSH_KEYS } from './testing/signed-commits.fixtures.js';
import { owner } from './testing/signing-owners.js';

const checker = (env: Record<string, string> = {}) => {
  const settings = loadRepoSettings({ CAIRN__REPOSITORY_SIGNING__SIGNING_KEY: 'none', ...env });
  return new SignatureChecker(settings, new InstanceSigningKeys(settings, new InstanceSigningKey(settings)));
};

const sshKey = (k: { line: string; fingerprint: string }, id = 1) => ({
  id,
  fingerprint: k.fingerprint,
  content: k.line.split(' ').slice(0, 2).join(' '),
});
const gpgKey = (k: (typeof GPG_KEYS)[keyof typeof GPG_KEYS], extra: Partial<SigningGpgKey> = {}): SigningGpgKey => ({
  id: 1,
  keyId: k.keyId,
  subkeyIds: [...k.subkeyIds],
  armored: k.armored,
  emails: [],
  canSign: true,
  verified: true,
  ...extra,
});

async function check(
  c: SignatureChecker,
  raw: Buffer,
  committer: SigningKeyOwner | null,
  gpgOwners: SigningKeyOwner[] = [],
): Promise<SignatureOutcome> {
  const commit = parseCommitObject(raw);
  const signature = commit.signature!;
  const pgp = SignatureChecker.isSsh(signature) || signature.tooLarge ? null : await readPgpSignature(signature.armored).catch(() => null);
  return c.check({
    signature,
    committerEmail: commit.committer.email,
    committer,
    pgp,
    gpgKeyOwner: (id) => gpgOwners.find((o) => o.gpgKeys.some((k) => k.keyId === id || k.subkeyIds.includes(id))) ?? null,
  });
}

const alice = (keys: Parameters<typeof owner>[3]) => owner(7, 'alice', 'alice@example.com', keys);

describe('SSH commit signatures (made by ssh-keygen -Y sign through git commit -S)', () => {
  it.each([
    ['ed25519', COMMITS.ssh_ed25519, SSH_KEYS.alice_ed25519],
    ['ecdsa p256', COMMITS.ssh_ecdsa, SSH_KEYS.alice_ecdsa],
    ['rsa-sha2-512', COMMITS.ssh_rsa, SSH_KEYS.alice_rsa],
    ['ed25519 with a sha256 message hash', COMMITS.ssh_sha256, SSH_KEYS.alice_ed25519],
  ])('verifies a %s signature with the committer\'s own key', async (_, raw, key) => {
    const out = await check(checker(), raw, alice({ sshKeys: [sshKey(key)] }));
    expect(out).toEqual({ verified: true, signer: { kind: 'user', userId: 7, email: 'alice@example.com' }, key: key.fingerprint });
  });

  it('does not verify with keys the committer does not have (another user\'s key is never tried)', async () => {
    expect(await check(checker(), COMMITS.ssh_ed25519, alice({ sshKeys: [sshKey(SSH_KEYS.alice_ecdsa)] }))).toEqual({
      verified: false,
      reason: 'gpg.error.no_gpg_keys_found',
    });
    expect(await check(checker(), COMMITS.ssh_ed25519, null)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
  });

  it('verifies with TRUSTED_SSH_KEYS, the instance signing', async () => {
    const c = checker({ CAIRN__REPOSITORY_SIGNING__TRUSTED_SSH_KEYS: `${SSH_KEYS.instance_ed25519.line}, ${SSH_KEYS.alice_rsa.line}` });
    expect(await check(c, COMMITS.ssh_instance, null)).toEqual({ verified: true, signer: { kind: 'instance' }, key: SSH_KEYS.instance_ed25519.fingerprint });
    // The committer's own key comes first.
    expect(await check(c, COMMITS.ssh_rsa, alice({ sshKeys: [sshKey(SSH_KEYS.alice_rsa)] }))).toMatchObject({ signer: { kind: 'user' } });
  });

  it('refuses a tampered payload, a wrong namespace, key types and hashes not allowed', async () => {
    const own = alice({ sshKeys: [sshKey(SSH_KEYS.alice_ed25519), sshKey(SSH_KEYS.alice_rsa)] });
    const tampered = Buffer.from(COMMITS.ssh_ed25519.toString('latin1').replace('ssh_ed25519\n', 'ssh_ed25519!\n'), 'latin1');
    expect(await check(checker(), tampered, own)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
    expect(await check(checker(), COMMITS.ssh_wrong_namespace, own)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
    const strict = checker({
      CAIRN__REPOSITORY_SIGNING__SSH_ALLOWED_KEY_TYPES: 'ed25519,ecdsa',
      CAIRN__REPOSITORY_SIGNING__SSH_ALLOWED_HASH_ALGORITHMS: 'sha512',
    });
    expect(await check(strict, COMMITS.ssh_rsa, own)).toMatchObject({ verified: false });
    expect(await check(strict, COMMITS.ssh_sha256, own)).toMatchObject({ verified: false });
    expect(await check(strict, COMMITS.ssh_ed25519, own)).toMatchObject({ verified: true });
  });

  it('answers hostile signatures with a reason, never an exception', async () => {
    const own = alice({ sshKeys: [sshKey(SSH_KEYS.alice_ed25519)] });
    const text = COMMITS.ssh_ed25519.toString('latin1');
    const truncated = Buffer.from(text.replace(/ -----END SSH SIGNATURE-----\n/, ''), 'latin1');
    const garbage = Buffer.from(text.replace(/U1NIU0lH[A-Za-z0-9+/]{10}/, 'U1NIU0lHAAAAAQAAAAA//z'), 'latin1');
    const envelope = (keyType: string) => {
      const str = (b: Buffer | string) => {
        const body = Buffer.from(b);
        const len = Buffer.alloc(4);
        len.writeUInt32BE(body.length);
        return Buffer.concat([len, body]);
      };
      const blob = Buffer.concat([
        Buffer.from('SSHSIG'), Buffer.from([0, 0, 0, 1]), str(Buffer.concat([str(keyType), str('x')])), str('git'), str(''), str('sha512'),
        str(Buffer.concat([str(keyType), str('sig')])),
      ]).toString('base64');
      return Buffer.from(text.replace(/gpgsig -----BEGIN SSH SIGNATURE-----\n[^]*?-----END SSH SIGNATURE-----\n/, `gpgsig -----BEGIN SSH SIGNATURE-----\n ${blob}\n -----END SSH SIGNATURE-----\n`), 'latin1');
    };
    const huge = (n: number) => Buffer.from(text.replace(/(gpgsig -----BEGIN SSH SIGNATURE-----\n)/, `$1${' QUFB\n'.repeat(n)}`), 'latin1');
    expect(parseCommitObject(envelope('ssh-unknown')).signature?.armored).toContain('BEGIN SSH SIGNATURE');
    for (const raw of [truncated, garbage, envelope('ssh-unknown'), envelope('ssh-dss'), huge(4_000), huge(20_000)]) {
      expect(await check(checker(), raw, own)).toEqual({ verified: false, reason: 'gpg.error.extract_sign' });
    }
  });
});

describe('OpenPGP commit signatures (made by gpg through git commit -S)', () => {
  it('verifies with the committer\'s verified key, by the signing subkey', async () => {
    const out = await check(checker(), COMMITS.gpg_alice, alice({ gpgKeys: [gpgKey(GPG_KEYS.alice)] }));
    expect(out).toEqual({ verified: true, signer: { kind: 'user', userId: 7, email: 'alice@example.com' }, key: GPG_KEYS.alice.subkeyIds[0] });
  });

  it('finds the key by the issuer id whoever owns it: the owner signs (an unverified key needs an activated address)', async () => {
    const bob = owner(9, 'bob', 'bob@example.com', { gpgKeys: [gpgKey(GPG_KEYS.bob, { verified: false, emails: ['bob@example.com'] })] });
    const out = await check(checker(), COMMITS.gpg_bob, alice({}), [bob]);
    expect(out).toEqual({ verified: true, signer: { kind: 'user', userId: 9, email: 'bob@example.com' }, key: GPG_KEYS.bob.keyId });
    // The key id is known but the key lists no address and is not verified: a probable bad signature.
    const unproven = owner(9, 'bob', 'bob@example.com', { gpgKeys: [gpgKey(GPG_KEYS.bob, { verified: false })] });
    expect(await check(checker(), COMMITS.gpg_bob, null, [unproven])).toEqual({ verified: false, reason: 'gpg.error.probable_bad_signature' });
    // Verified but listing no address: the owner's activated address stands in.
    const proven = owner(9, 'bob', 'bob@example.com', { gpgKeys: [gpgKey(GPG_KEYS.bob, { verified: true })], activatedEmails: ['bob@work.example'] });
    expect(await check(checker(), COMMITS.gpg_bob, null, [proven])).toEqual({
      verified: true,
      signer: { kind: 'user', userId: 9, email: 'bob@work.example' },
      key: GPG_KEYS.bob.keyId,
    });
  });

  it('does not verify with an unverified key of the committer that lists another address, nor with no key', async () => {
    // A verified key counts only while the committer's address is one of the committer's activated addresses.
    const notActivated = alice({ gpgKeys: [gpgKey(GPG_KEYS.alice)], activatedEmails: ['alice@elsewhere.example'] });
    expect(await check(checker(), COMMITS.gpg_alice, notActivated)).toEqual({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
    const keyOfOthers = alice({ gpgKeys: [gpgKey(GPG_KEYS.alice, { verified: false, emails: ['other@example.com'] })] });
    expect(await check(checker(), COMMITS.gpg_alice, keyOfOthers)).toEqual({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
    expect(await check(checker(), COMMITS.gpg_alice, null)).toEqual({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
  });

  it('refuses a tampered payload and an unreadable signature', async () => {
    const own = alice({ gpgKeys: [gpgKey(GPG_KEYS.alice)] });
    const text = COMMITS.gpg_alice.toString('latin1');
    const tampered = Buffer.from(text.replace('gpg_alice\n', 'gpg_alice?\n'), 'latin1');
    // The key named by the signature is known (alice's) and does not verify it.
    expect(await check(checker(), tampered, own, [own])).toEqual({ verified: false, reason: 'gpg.error.probable_bad_signature' });
    const broken = Buffer.from(text.replace(/\n [A-Za-z0-9+/]{64}\n/, '\n !!!!\n'), 'latin1');
    expect(await check(checker(), broken, own)).toEqual({ verified: false, reason: 'gpg.error.extract_sign' });
  });
});
