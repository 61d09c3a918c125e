// The instance CommitSigner with real keys and git: which commits it signs per rule, and that git verifies them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type ActorDto, type SigningKeysReply, type UserDto } from '@cairn/contracts';
import { ConfigError, loadSettings, type RpcClient } from '@cairn/platform';
import type { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import { commitTree, type GitIdentity } from '@cairn/git';
import { removeDir, tempDir } from '../../../../../test/support/git-fixture.js';
import { InstanceKeySignatureCheck } from './commit-signature-check.js';
import { InstanceCommitSigner } from './instance-commit-signer.js';
import { InstanceSigningKey, validateInstanceSigningKey, type SigningSettings } from './instance-key.js';
import { signingSettingsSpec } from '../../foundation/config/signing-settings.js';

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const alice: GitIdentity = { name: 'Alice', email: 'alice@example.com' };
const bob: GitIdentity = { name: 'Bob', email: 'bob@example.com' };
const ALICE_ID = 7;

let root: string;
let sshPub: string;
let gnupgHome: string;
let gpgFingerprint: string;
const savedGnupgHome = process.env.GNUPGHOME;

function settings(env: Record<string, string>): SigningSettings {
  const prefixed = Object.fromEntries(Object.entries(env).map(([k, v]) => [`CAIRN__REPOSITORY_SIGNING__${k}`, v]));
  return loadSettings(signingSettingsSpec, prefixed);
}

const sshSettings = (extra: Record<string, string> = {}) =>
  settings({ SIGNING_KEY: sshPub, SIGNING_FORMAT: 'ssh', SIGNING_NAME: 'gitea', SIGNING_EMAIL: 'gitea@fake.local', ...extra });

/** identity-service stand-ins: alice's primary e-mail, and whether she has GPG keys (`null`: identity is down). */
function signerWith(s: SigningSettings, aliceHasGpgKey: boolean | null = false): InstanceCommitSigner {
  const directory = {
    usersById: (ids: number[]) =>
      Promise.resolve(new Map(ids.filter((id) => id === ALICE_ID).map((id) => [id, { id, login: 'alice', email: alice.email } as UserDto]))),
  } as unknown as IdentityDirectory;
  const rpc = {
    send: (): Promise<SigningKeysReply> => {
      if (aliceHasGpgKey === null) return Promise.reject(new Error('no responders: identity.signing.keys'));
      const gpgKeys = aliceHasGpgKey ? [{ id: 1, keyId: 'ABCDEF0123456789', subkeyIds: [], armored: '', emails: [], canSign: true, verified: true }] : [];
      return Promise.resolve({
        byEmail: {
          [alice.email]: { user: { id: ALICE_ID, login: 'alice' } as UserDto, keysVersion: '1', activatedEmails: [alice.email], noReplyEmail: '', sshKeys: [], gpgKeys },
        },
        byGpgKeyId: {},
      });
    },
  } as unknown as RpcClient;
  const key = new InstanceSigningKey(s);
  return new InstanceCommitSigner(key, directory, rpc, new InstanceKeySignatureCheck(key), s);
}

function actor(hasTwoFactor: boolean): ActorDto {
  return { id: ALICE_ID, login: 'alice', isAdmin: false, scopes: ['all'], hasTwoFactor };
}

function newRepo(name: string): string {
  const dir = path.join(root, `${name}.git`);
  execFileSync('git', ['init', '-q', '--bare', dir]);
  return dir;
}

function catCommit(dir: string, oid: string): string {
  return execFileSync('git', ['--git-dir', dir, 'cat-file', 'commit', oid], { encoding: 'utf8' });
}

/** `git verify-commit` of an SSH-signed commit against the instance key only. */
function verifiesWithSsh(dir: string, oid: string): boolean {
  const allowed = path.join(root, 'allowed_signers');
  writeFileSync(allowed, `gitea@fake.local namespaces="git" ${readFileSync(sshPub, 'utf8').trim()}\n`);
  try {
    execFileSync('git', ['--git-dir', dir, '-c', `gpg.ssh.allowedSignersFile=${allowed}`, 'verify-commit', oid], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

function verifiesWithGpg(dir: string, oid: string): boolean {
  try {
    execFileSync('git', ['--git-dir', dir, 'verify-commit', oid], { stdio: 'pipe', env: { ...process.env, GNUPGHOME: gnupgHome } });
    return true;
  } catch {
    return false;
  }
}

async function unsignedCommit(dir: string, parents: string[] = []): Promise<string> {
  return commitTree(dir, EMPTY_TREE, parents, 'unsigned\n', alice, alice, null);
}

beforeAll(() => {
  root = tempDir('cairn-it-signing-');
  const keys = path.join(root, 'keys');
  mkdirSync(keys);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'gitea', '-f', path.join(keys, 'instance')]);
  sshPub = path.join(keys, 'instance.pub');
  gnupgHome = path.join(root, 'gnupg');
  mkdirSync(gnupgHome, { mode: 0o700 });
  const gpgEnv = { ...process.env, GNUPGHOME: gnupgHome };
  execFileSync('gpg', ['--batch', '--passphrase', '', '--quick-gen-key', 'gitea <gitea@fake.local>', 'ed25519', 'sign', 'never'], { env: gpgEnv, stdio: 'pipe' });
  const listing = execFileSync('gpg', ['--batch', '--with-colons', '--list-secret-keys'], { env: gpgEnv, encoding: 'utf8', stdio: 'pipe' });
  gpgFingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(listing)![1];
  // repo-service's git and gpg find the keyring through GNUPGHOME (passed through by gitEnvironment).
  process.env.GNUPGHOME = gnupgHome;
});

afterAll(() => {
  if (savedGnupgHome === undefined) delete process.env.GNUPGHOME;
  else process.env.GNUPGHOME = savedGnupgHome;
  if (root) removeDir(root);
});

describe('start-up check of SIGNING_KEY', () => {
  it('accepts an SSH public key with its private key beside it, and a secret GPG key of the keyring', () => {
    expect(() => validateInstanceSigningKey(sshSettings())).not.toThrow();
    expect(() => validateInstanceSigningKey(settings({ SIGNING_KEY: gpgFingerprint, SIGNING_FORMAT: 'openpgp' }))).not.toThrow();
    expect(() => validateInstanceSigningKey(settings({ SIGNING_KEY: 'none' }))).not.toThrow();
    expect(() => validateInstanceSigningKey(settings({ SIGNING_KEY: 'default' }))).not.toThrow();
  });

  it('refuses, naming the problem, a missing, relative or non-key file, a missing private key, an unknown GPG key', () => {
    const refuse = (env: Record<string, string>, message: RegExp) => {
      expect(() => validateInstanceSigningKey(settings(env))).toThrow(ConfigError);
      expect(() => validateInstanceSigningKey(settings(env))).toThrow(message);
    };
    refuse({ SIGNING_KEY: path.join(root, 'nope.pub'), SIGNING_FORMAT: 'ssh' }, /SIGNING_KEY: cannot read the SSH public key .*nope\.pub: ENOENT/);
    refuse({ SIGNING_KEY: 'keys/instance.pub', SIGNING_FORMAT: 'ssh' }, /absolute path of an SSH public key file/);
    const notAKey = path.join(root, 'keys', 'not-a-key.pub');
    writeFileSync(notAKey, 'hello\n');
    refuse({ SIGNING_KEY: notAKey, SIGNING_FORMAT: 'ssh' }, /is not an OpenSSH public key/);
    const lonely = path.join(root, 'keys', 'lonely.pub');
    writeFileSync(lonely, readFileSync(sshPub));
    refuse({ SIGNING_KEY: lonely, SIGNING_FORMAT: 'ssh' }, /the private key of .*lonely\.pub is missing: expected it at .*lonely$/);
    refuse({ SIGNING_KEY: '0123456789ABCDEF', SIGNING_FORMAT: 'openpgp' }, /no secret GPG key "0123456789ABCDEF"/);
    refuse({ SIGNING_KEY: '--armor', SIGNING_FORMAT: 'openpgp' }, /is not a GPG key id/);
  });
});

describe('file changes (crud) with an SSH instance key', () => {
  it('always: signed by the instance key, committed as the actor (collaborator trust model)', async () => {
    const dir = newRepo('crud-always');
    const signer = signerWith(sshSettings({ CRUD_ACTIONS: 'always' }));
    const parent = await unsignedCommit(dir);
    const signing = await signer.decide('crud', { gitDir: dir, actorId: ALICE_ID, parentCommit: parent });
    expect(signing).toMatchObject({ format: 'ssh', key: sshPub, signer: { name: 'gitea', email: 'gitea@fake.local' }, committerIsSigner: false });
    const oid = await commitTree(dir, EMPTY_TREE, [parent], 'Update README.md\n', alice, alice, signing);
    const raw = catCommit(dir, oid);
    expect(raw).toMatch(/^gpgsig -----BEGIN SSH SIGNATURE-----$/m);
    expect(raw).toMatch(/^committer Alice <alice@example\.com> /m);
    expect(verifiesWithSsh(dir, oid)).toBe(true);
  });

  it('never: unsigned, and commitTree refuses to sign on its own (--no-gpg-sign)', async () => {
    const dir = newRepo('crud-never');
    execFileSync('git', ['--git-dir', dir, 'config', 'commit.gpgsign', 'true']);
    const signer = signerWith(sshSettings({ CRUD_ACTIONS: 'never' }));
    const parent = await unsignedCommit(dir);
    expect(await signer.decide('crud', { gitDir: dir, actorId: ALICE_ID, parentCommit: parent })).toBeNull();
    const oid = await commitTree(dir, EMPTY_TREE, [parent], 'x\n', alice, alice, null);
    expect(catCommit(dir, oid)).not.toMatch(/^gpgsig /m);
  });

  it('parentsigned: signs on top of an instance-signed commit, not on top of an unsigned one', async () => {
    const dir = newRepo('crud-parentsigned');
    const signer = signerWith(sshSettings({ CRUD_ACTIONS: 'parentsigned', INITIAL_COMMIT: 'always' }));
    // No parent (an empty repository): the initial-commit rules apply.
    const first = await signer.decide('crud', { gitDir: dir, actorId: ALICE_ID, parentCommit: null });
    expect(first).not.toBeNull();
    const signedRoot = await commitTree(dir, EMPTY_TREE, [], 'Add README.md\n', alice, alice, first);
    const onSigned = await signer.decide('crud', { gitDir: dir, actorId: ALICE_ID, parentCommit: signedRoot });
    expect(onSigned).not.toBeNull();
    const child = await commitTree(dir, EMPTY_TREE, [signedRoot], 'Update\n', alice, alice, onSigned);
    expect(verifiesWithSsh(dir, child)).toBe(true);
    expect(await signer.decide('crud', { gitDir: dir, actorId: ALICE_ID, parentCommit: await unsignedCommit(dir) })).toBeNull();
  });

  it('parentsigned: a parent signed by another SSH key does not count', async () => {
    const dir = newRepo('crud-otherkey');
    const other = path.join(root, 'keys', 'other');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', other]);
    const foreign = await commitTree(dir, EMPTY_TREE, [], 'foreign\n', alice, alice, { format: 'ssh', key: `${other}.pub`, signer: alice });
    expect(catCommit(dir, foreign)).toMatch(/^gpgsig /m);
    const signer = signerWith(sshSettings({ CRUD_ACTIONS: 'parentsigned' }));
    expect(await signer.decide('crud', { gitDir: dir, actorId: ALICE_ID, parentCommit: foreign })).toBeNull();
  });

  it('twofa: signs for an actor with two-factor authentication only', async () => {
    const dir = newRepo('crud-twofa');
    const parent = await unsignedCommit(dir);
    const signer = signerWith(sshSettings({ CRUD_ACTIONS: 'twofa' }));
    expect(await signer.decide('crud', { gitDir: dir, actorId: ALICE_ID, actor: actor(true), parentCommit: parent })).not.toBeNull();
    expect(await signer.decide('crud', { gitDir: dir, actorId: ALICE_ID, actor: actor(false), parentCommit: parent })).toBeNull();
    // Without the authenticated actor the enrolment is unknown: not signed.
    expect(await signer.decide('crud', { gitDir: dir, actorId: ALICE_ID, parentCommit: parent })).toBeNull();
  });

  it('pubkey: signs for an actor with a GPG key only; identity not answering means unsigned, not an error', async () => {
    const dir = newRepo('crud-pubkey');
    const parent = await unsignedCommit(dir);
    const s = sshSettings({ CRUD_ACTIONS: 'pubkey' });
    expect(await signerWith(s, true).decide('crud', { gitDir: dir, actorId: ALICE_ID, parentCommit: parent })).not.toBeNull();
    expect(await signerWith(s, false).decide('crud', { gitDir: dir, actorId: ALICE_ID, parentCommit: parent })).toBeNull();
    expect(await signerWith(s, null).decide('crud', { gitDir: dir, actorId: ALICE_ID, parentCommit: parent })).toBeNull();
    expect(await signerWith(s, true).decide('crud', { gitDir: dir, actorId: null, parentCommit: parent })).toBeNull();
  });

  it('committer trust model: the signer commits, the actor stays as Co-authored-by/Co-committed-by when not the author', async () => {
    const dir = newRepo('crud-committer');
    const parent = await unsignedCommit(dir);
    const signer = signerWith(sshSettings({ CRUD_ACTIONS: 'always', DEFAULT_TRUST_MODEL: 'committer' }));
    const signing = await signer.decide('crud', { gitDir: dir, actorId: ALICE_ID, parentCommit: parent });
    const oid = await commitTree(dir, EMPTY_TREE, [parent], 'Update README.md\n', bob, alice, signing);
    const raw = catCommit(dir, oid);
    expect(raw).toMatch(/^author Bob <bob@example\.com> /m);
    expect(raw).toMatch(/^committer gitea <gitea@fake\.local> /m);
    expect(raw.endsWith('Update README.md\n\nCo-authored-by: Alice <alice@example.com>\nCo-committed-by: Alice <alice@example.com>\n')).toBe(true);
    expect(verifiesWithSsh(dir, oid)).toBe(true);
  });

  it("the repository's own trust model wins over DEFAULT_TRUST_MODEL; `default` means DEFAULT_TRUST_MODEL", async () => {
    const dir = newRepo('crud-repo-trust');
    const parent = await unsignedCommit(dir);
    const signer = signerWith(sshSettings({ CRUD_ACTIONS: 'always', DEFAULT_TRUST_MODEL: 'collaborator' }));
    const decide = (trustModel: 'default' | 'committer' | 'collaboratorcommitter' | 'collaborator') =>
      signer.decide('crud', { gitDir: dir, actorId: ALICE_ID, parentCommit: parent, trustModel });
    expect(await decide('collaboratorcommitter')).toMatchObject({ committerIsSigner: true });
    expect(await decide('committer')).toMatchObject({ committerIsSigner: true });
    expect(await decide('default')).toMatchObject({ committerIsSigner: false });
  });
});

describe('merges with an SSH instance key', () => {
  it('basesigned / headsigned / commitssigned look at the base, the head and every commit the head adds', async () => {
    const dir = newRepo('merges');
    const always = await signerWith(sshSettings({ MERGES: 'always' })).decide('merge', { gitDir: dir, actorId: ALICE_ID });
    const signedBase = await commitTree(dir, EMPTY_TREE, [], 'base\n', alice, alice, always);
    const signedHead1 = await commitTree(dir, EMPTY_TREE, [signedBase], 'h1\n', alice, alice, always);
    const signedHead2 = await commitTree(dir, EMPTY_TREE, [signedHead1], 'h2\n', alice, alice, always);
    const unsignedMiddle = await unsignedCommit(dir, [signedBase]);
    const signedOnUnsigned = await commitTree(dir, EMPTY_TREE, [unsignedMiddle], 'h3\n', alice, alice, always);
    const unsignedBase = await unsignedCommit(dir);
    const decide = (rule: string, baseCommit: string, headCommit: string) =>
      signerWith(sshSettings({ MERGES: rule })).decide('merge', { gitDir: dir, actorId: ALICE_ID, baseCommit, headCommit });

    expect(await decide('basesigned', signedBase, unsignedMiddle)).not.toBeNull();
    expect(await decide('basesigned', unsignedBase, signedHead2)).toBeNull();
    expect(await decide('headsigned', unsignedBase, signedHead2)).not.toBeNull();
    expect(await decide('headsigned', signedBase, unsignedMiddle)).toBeNull();
    expect(await decide('commitssigned', signedBase, signedHead2)).not.toBeNull();
    // The head is signed, but one of the commits it brings is not.
    expect(await decide('commitssigned', signedBase, signedOnUnsigned)).toBeNull();
    expect(await decide('never', signedBase, signedHead2)).toBeNull();
    // No pull request reviews in Cairn: approved never holds.
    expect(await decide('approved', signedBase, signedHead2)).toBeNull();
    // A commit that is not there: the rule cannot be evaluated, the merge is unsigned (not failed).
    expect(await decide('commitssigned', signedBase, 'f'.repeat(40))).toBeNull();
  });
});

describe('an OpenPGP instance key (gpg, private GNUPGHOME)', () => {
  const gpgSettings = (extra: Record<string, string> = {}) =>
    settings({ SIGNING_KEY: gpgFingerprint, SIGNING_FORMAT: 'openpgp', SIGNING_NAME: 'gitea', SIGNING_EMAIL: 'gitea@fake.local', ...extra });

  it('signs with gpg (git verify-commit accepts it) and parentsigned recognises its signatures', async () => {
    const dir = newRepo('gpg');
    const signer = signerWith(gpgSettings({ CRUD_ACTIONS: 'parentsigned', INITIAL_COMMIT: 'always' }));
    const first = await signer.decide('crud', { gitDir: dir, actorId: ALICE_ID, parentCommit: null });
    expect(first).toMatchObject({ format: 'openpgp', key: gpgFingerprint });
    const root1 = await commitTree(dir, EMPTY_TREE, [], 'Initial commit\n', alice, alice, first);
    expect(catCommit(dir, root1)).toMatch(/^gpgsig -----BEGIN PGP SIGNATURE-----$/m);
    expect(verifiesWithGpg(dir, root1)).toBe(true);
    expect(await signer.decide('crud', { gitDir: dir, actorId: ALICE_ID, parentCommit: root1 })).not.toBeNull();
    expect(await signer.decide('crud', { gitDir: dir, actorId: ALICE_ID, parentCommit: await unsignedCommit(dir) })).toBeNull();
  });

  it('serves the armored public key for signing-key.gpg and 404s signing-key.pub with Gitea\'s message', async () => {
    const key = new InstanceSigningKey(gpgSettings());
    const armored = await key.publicKeyIn('openpgp', null);
    expect(armored).toMatch(/^-----BEGIN PGP PUBLIC KEY BLOCK-----/);
    await expect(key.publicKeyIn('ssh', null)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND, message: 'signing key format is openpgp' });
  });
});

describe('signing-key answers', () => {
  it('ssh: the public key line; signing-key.gpg is 404 "signing key format is ssh"', async () => {
    const key = new InstanceSigningKey(sshSettings());
    expect(await key.publicKeyIn('ssh', null)).toBe(`${readFileSync(sshPub, 'utf8').trim()}\n`);
    await expect(key.publicKeyIn('openpgp', null)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND, message: 'signing key format is ssh' });
  });

  it('none: 404 "no signing key" for both, and nothing is signed', async () => {
    const s = settings({ SIGNING_KEY: 'none', INITIAL_COMMIT: 'always' });
    const key = new InstanceSigningKey(s);
    await expect(key.publicKeyIn('ssh', null)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND, message: 'no signing key' });
    await expect(key.publicKeyIn('openpgp', null)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND, message: 'no signing key' });
    expect(await signerWith(s).decide('initial-commit', { gitDir: newRepo('none'), actorId: ALICE_ID })).toBeNull();
  });

  it('default: the repository\'s git configuration (commit.gpgsign, user.signingkey, gpg.format, user.name/email)', async () => {
    const dir = newRepo('default-config');
    const s = settings({ SIGNING_KEY: 'default', INITIAL_COMMIT: 'always' });
    const key = new InstanceSigningKey(s);
    const config = (k: string, v: string) => execFileSync('git', ['--git-dir', dir, 'config', k, v]);
    config('user.signingkey', sshPub);
    config('gpg.format', 'ssh');
    config('user.name', 'Repo Signer');
    config('user.email', 'signer@example.com');
    // Without commit.gpgsign = true there is no key.
    expect(await key.resolve(dir)).toBeNull();
    await expect(key.publicKeyIn('ssh', dir)).rejects.toMatchObject({ message: 'no signing key' });
    config('commit.gpgsign', 'yes');
    expect(await key.resolve(dir)).toEqual({ format: 'ssh', key: sshPub, signer: { name: 'Repo Signer', email: 'signer@example.com' } });
    expect(await key.publicKeyIn('ssh', dir)).toBe(`${readFileSync(sshPub, 'utf8').trim()}\n`);
    const signing = await signerWith(s).decide('initial-commit', { gitDir: dir, actorId: ALICE_ID });
    const oid = await commitTree(dir, EMPTY_TREE, [], 'Initial commit\n', alice, alice, signing);
    expect(verifiesWithSsh(dir, oid)).toBe(true);
  });
});
