/**
 * Commit signatures end to end: commits signed by the real `git commit -S` (gpg.format=ssh, i.e. ssh-keygen -Y sign,
 * and gpg with a private GNUPGHOME), pushed over HTTP, and read through the commit list, the single commit, branches
 * and pull-request commits. Covers each key source of Gitea 1.25 (the committer's verified SSH keys, unverified and
 * other users' keys, OpenPGP keys, TRUSTED_SSH_KEYS, the instance key), each trust model's status, tampered and
 * hostile signatures (truncated armor, wrong namespace, huge blob, unknown algorithm: unverified with a reason, never
 * a 500), and key changes taking effect at once.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_SUITE_APPS, gitRunner, httpCloneUrl, workspace, type Git } from '../support/git.js';
import { createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { commitSignedAs, type CommitSigning } from '../support/signing.js';
import { Gpg, sshKeyPair, sshSign, type GpgKey } from '../support/signing-tools.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { FAST_PASSWORD_HASH, expectClientError, expectContract } from './identity-helpers.js';

const ws = workspace('cairn-e2e-signatures-');
let suite: TestSuite;
let api: HttpClient;
let git: Git;
let gpg: Gpg;
let alice: Account;
let bob: Account;
let base: string;
let work: string;
const repo = 'signed';
const INSTANCE = { name: 'Cairn Instance', email: 'cairn@instance.test' };

type KeyPair = Awaited<ReturnType<typeof sshKeyPair>>;
const keys: Record<'aliceVerified' | 'aliceUnverified' | 'bob' | 'trusted' | 'instance', KeyPair> = {} as never;
let aliceGpg: GpgKey;
let aliceVerifiedKeyId = 0;
let aliceUnverifiedKeyId = 0;
const sha: Record<string, string> = {};

const emailOf = (a: Account) => `${a.username}@example.com`;
const fingerprint = (k: KeyPair) => {
  const blob = Buffer.from(k.publicKey.split(' ')[1], 'base64');
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
};

/** An empty commit by `who` (author and committer), signed as asked. */
function commit(message: string, who: Account, sign: CommitSigning = {}): Promise<string> {
  return commitSignedAs(git, work, message, { name: who.username, email: emailOf(who) }, sign, gpg.home);
}

/** A commit object written by hand from another's text (tampered or hostile), on top of nothing new. */
async function crafted(from: string, edit: (text: string) => string): Promise<string> {
  const text = await git.ok(['cat-file', 'commit', from], { cwd: work });
  return git.ok(['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: work, input: `${edit(`${text}\n`)}` });
}

/** Replaces the armored body of the commit's signature. */
const withSignature = (armoredBody: string) => (text: string) =>
  text.replace(/gpgsig -----BEGIN SSH SIGNATURE-----\n[^]*?-----END SSH SIGNATURE-----\n/, `gpgsig ${armoredBody.trimEnd().split('\n').join('\n ')}\n`);

async function pushAll(): Promise<void> {
  const url = httpCloneUrl(suite.baseUrl, alice.username, repo, { username: alice.username, secret: alice.password });
  await git.ok(['push', '-q', '--force', url, 'refs/heads/*:refs/heads/*'], { cwd: work });
}

async function verificationOf(shaOrRef: string) {
  const res = await api.get(`${base}/git/commits/${shaOrRef}`, { basic: alice });
  expect(res.status, res.text).toBe(200);
  return res.body.commit.verification;
}

async function listVerifications(query = ''): Promise<Map<string, Record<string, unknown>>> {
  const res = await api.get(`${base}/commits?sha=main&limit=50${query}`, { basic: alice });
  expectContract('GET', '/repos/{owner}/{repo}/commits', res);
  return new Map(res.body.map((c: { sha: string; commit: { verification: Record<string, unknown> } }) => [c.sha, c.commit.verification]));
}

async function addSshKey(who: Account, pair: KeyPair, verify: boolean): Promise<number> {
  const added = await api.post('/user/keys', { basic: who, body: { title: uniqueName('k'), key: pair.publicKey } });
  expect(added.status, added.text).toBe(201);
  if (verify) {
    const token = await api.get('/user/ssh_key_token', { basic: who });
    const res = await api.post('/user/ssh_key_verify', {
      basic: who,
      body: { key_id: added.body.id, signature: await sshSign(pair.privateKeyPath, token.text) },
    });
    expect(res.status, res.text).toBe(200);
  }
  return added.body.id;
}

async function setTrustModel(model: string): Promise<void> {
  const res = await api.patch(base, { basic: alice, body: { trust_model: model } });
  expect(res.status, res.text).toBe(200);
}

beforeAll(async () => {
  const dir = ws.dir('keys');
  for (const name of Object.keys({ aliceVerified: 0, aliceUnverified: 0, bob: 0, trusted: 0, instance: 0 }) as (keyof typeof keys)[]) {
    keys[name] = await sshKeyPair(dir, name === 'bob' ? 'ecdsa' : 'ed25519');
  }
  gpg = new Gpg(ws.dir('gnupg'));
  suite = await startTestSuite({
    apps: REPO_SUITE_APPS,
    env: {
      ...FAST_PASSWORD_HASH,
      CAIRN__REPOSITORY_SIGNING__TRUSTED_SSH_KEYS: keys.trusted.publicKey,
      CAIRN__REPOSITORY_SIGNING__SIGNING_FORMAT: 'ssh',
      CAIRN__REPOSITORY_SIGNING__SIGNING_KEY: `${keys.instance.privateKeyPath}.pub`,
      CAIRN__REPOSITORY_SIGNING__SIGNING_NAME: INSTANCE.name,
      CAIRN__REPOSITORY_SIGNING__SIGNING_EMAIL: INSTANCE.email,
      // Cairn's initial commits stay unsigned; its file changes are signed with the instance key.
      CAIRN__REPOSITORY_SIGNING__INITIAL_COMMIT: 'never',
      CAIRN__REPOSITORY_SIGNING__CRUD_ACTIONS: 'always',
    },
  });
  api = http(suite);
  git = gitRunner(ws.dir('home'));
  const admin = await suite.createAdmin();
  [alice, bob] = await Promise.all([createUser(suite, admin, uniqueName('alice')), createUser(suite, admin, uniqueName('bob'))]);
  aliceGpg = await gpg.generate(`Alice <${emailOf(alice)}>`, 'ed25519', { signingSubkey: true });
  aliceVerifiedKeyId = await addSshKey(alice, keys.aliceVerified, true);
  aliceUnverifiedKeyId = await addSshKey(alice, keys.aliceUnverified, false);
  await addSshKey(bob, keys.bob, true);
  const gpgAdded = await api.post('/user/gpg_keys', { basic: alice, body: { armored_public_key: aliceGpg.armoredPublic } });
  expect(gpgAdded.status, gpgAdded.text).toBe(201);

  expect((await api.post('/user/repos', { basic: alice, body: { name: repo } })).status).toBe(201);
  base = `/repos/${alice.username}/${repo}`;
  work = ws.dir('work');
  await git.ok(['init', '-q', '-b', 'main', work]);
  sha.unsigned = await commit('unsigned', alice);
  sha.own = await commit('own verified key', alice, { ssh: keys.aliceVerified });
  sha.unverifiedKey = await commit('own unverified key', alice, { ssh: keys.aliceUnverified });
  sha.othersKey = await commit("bob's key, alice committing", alice, { ssh: keys.bob });
  sha.trusted = await commit('trusted key', alice, { ssh: keys.trusted });
  sha.instance = await commit('instance key', alice, { ssh: keys.instance });
  sha.gpg = await commit('gpg', alice, { gpg: aliceGpg.keyId });
  sha.bob = await commit('bob with his own key', bob, { ssh: keys.bob });
  // Tampered and hostile objects hang off their own branches.
  const branch = async (name: string, id: string) => git.ok(['branch', '-f', name, id], { cwd: work });
  sha.tampered = await crafted(sha.own, (t) => t.replace('own verified key', 'own verified key, changed'));
  const own = await git.ok(['cat-file', 'commit', sha.own], { cwd: work });
  const armored = own.slice(own.indexOf('-----BEGIN SSH SIGNATURE-----'), own.indexOf('-----END SSH SIGNATURE-----') + 27).replace(/\n /g, '\n');
  sha.truncated = await crafted(sha.own, withSignature(armored.split('\n').slice(0, 2).join('\n')));
  const payload = own.replace(/gpgsig [^]*?-----END SSH SIGNATURE-----\n/, '') + '\n';
  sha.wrongNamespace = await crafted(sha.own, withSignature(await sshSign(keys.aliceVerified.privateKeyPath, payload, 'file')));
  sha.huge = await crafted(sha.own, withSignature(`-----BEGIN SSH SIGNATURE-----\n${'QUFB'.repeat(30_000).replace(/(.{70})/g, '$1\n')}\n-----END SSH SIGNATURE-----`));
  const wire = (s: string | Buffer) => {
    const b = Buffer.from(s);
    return Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  };
  const unknown = Buffer.concat([Buffer.from('SSHSIG'), Buffer.from([0, 0, 0, 1]), wire(Buffer.concat([wire('ssh-foo'), wire('k')])), wire('git'), wire(''), wire('sha512'), wire(Buffer.concat([wire('ssh-foo'), wire('s')]))]);
  sha.unknownAlgorithm = await crafted(sha.own, withSignature(`-----BEGIN SSH SIGNATURE-----\n${unknown.toString('base64')}\n-----END SSH SIGNATURE-----`));
  for (const name of ['tampered', 'truncated', 'wrongNamespace', 'huge', 'unknownAlgorithm']) await branch(name, sha[name]);
  await pushAll();
});

afterAll(async () => {
  await suite?.stop();
  ws.cleanup();
});

describe('commit verification on the commit list', () => {
  it('verifies by the key source, in Gitea\'s shape, with the trust status', async () => {
    const v = await listVerifications();
    expect(v.get(sha.unsigned)).toEqual({ verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '', trust_status: '' });
    const own = v.get(sha.own)!;
    expect(own).toMatchObject({
      verified: true,
      reason: `${alice.username} / ${fingerprint(keys.aliceVerified)}`,
      signer: { name: alice.username, email: emailOf(alice), username: alice.username },
      trust_status: 'trusted', // the repository's owner, under the default collaborator model
    });
    expect(own.signature).toMatch(/^-----BEGIN SSH SIGNATURE-----\n[A-Za-z0-9+/]/);
    expect(own.payload).toBe((await git.ok(['cat-file', 'commit', sha.own], { cwd: work })).replace(/gpgsig [^]*?-----END SSH SIGNATURE-----\n/, '') + '\n');
    expect(v.get(sha.unverifiedKey)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found', signer: null, trust_status: '' });
    expect(v.get(sha.othersKey)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
    const instanceSigner = { name: INSTANCE.name, email: INSTANCE.email, username: '' };
    expect(v.get(sha.trusted)).toMatchObject({ verified: true, reason: `${INSTANCE.name} / ${fingerprint(keys.trusted)}`, signer: instanceSigner, trust_status: 'trusted' });
    expect(v.get(sha.instance)).toMatchObject({ verified: true, reason: `${INSTANCE.name} / ${fingerprint(keys.instance)}`, signer: instanceSigner });
    expect(v.get(sha.gpg)).toMatchObject({ verified: true, reason: `${alice.username} / ${aliceGpg.subkeyIds[1]}`, signer: { name: alice.username } });
    expect(v.get(sha.gpg)!.signature).toMatch(/^-----BEGIN PGP SIGNATURE-----/);
    // bob signs his own commit with his verified key but does not collaborate: verified, untrusted.
    expect(v.get(sha.bob)).toMatchObject({ verified: true, reason: `${bob.username} / ${fingerprint(keys.bob)}`, trust_status: 'untrusted' });
  });

  it('leaves verification out with verification=false', async () => {
    const res = await api.get(`${base}/commits?sha=main&verification=false`, { basic: alice });
    expect(res.status).toBe(200);
    expect(res.body.every((c: { commit: { verification: unknown } }) => c.commit.verification === null)).toBe(true);
  });
});

describe('the same verification everywhere a commit is shown', () => {
  it('single commit, branch, branch list and pull-request commits', async () => {
    const listed = await listVerifications();
    expect(await verificationOf(sha.own)).toEqual(listed.get(sha.own));
    await git.ok(['branch', '-f', 'own-head', sha.own], { cwd: work });
    await pushAll();
    const branch = await api.get(`${base}/branches/own-head`, { basic: alice });
    expectContract('GET', '/repos/{owner}/{repo}/branches/{branch}', branch);
    expect(branch.body.commit.verification).toEqual(listed.get(sha.own));
    const branches = await api.get(`${base}/branches`, { basic: alice });
    const main = branches.body.find((b: { name: string }) => b.name === 'main');
    expect(main.commit.verification).toEqual(listed.get(sha.bob));

    // A pull request of signed commits on a topic branch.
    await git.ok(['checkout', '-q', '-b', 'topic', sha.unsigned], { cwd: work });
    sha.topicSigned = await commit('topic, signed', alice, { ssh: keys.aliceVerified });
    await git.ok(['checkout', '-q', 'main'], { cwd: work });
    await git.ok(['branch', '-f', 'base-for-pr', sha.unsigned], { cwd: work });
    await pushAll();
    const pr = await api.post(`${base}/pulls`, { basic: alice, body: { head: 'topic', base: 'base-for-pr', title: 'signed topic' } });
    expect(pr.status, pr.text).toBe(201);
    const commits = await api.get(`${base}/pulls/${pr.body.number}/commits`, { basic: alice });
    expect(commits.status, commits.text).toBe(200);
    expect(commits.body.map((c: { sha: string; commit: { verification: { verified: boolean } } }) => [c.sha, c.commit.verification.verified])).toEqual([
      [sha.topicSigned, true],
    ]);
  });
});

describe('file operations', () => {
  it('answer with the verification of the commit they made (signed by the instance key)', async () => {
    const res = await api.post(`${base}/contents/notes/${uniqueName('f')}.txt`, {
      basic: alice,
      body: { content: Buffer.from('hello\n').toString('base64'), message: 'add a note', branch: 'base-for-pr', new_branch: uniqueName('notes') },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.verification).toMatchObject({
      verified: true,
      reason: `${INSTANCE.name} / ${fingerprint(keys.instance)}`,
      signer: { name: INSTANCE.name, email: INSTANCE.email, username: '' },
    });
    expect(await verificationOf(res.body.commit.sha)).toEqual(res.body.verification);
  });
});

describe('tampered and hostile signatures', () => {
  it('shows them unverified with a reason, never a 500', async () => {
    expect(await verificationOf(sha.tampered)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
    expect(await verificationOf(sha.wrongNamespace)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
    expect(await verificationOf(sha.truncated)).toMatchObject({ verified: false, reason: 'gpg.error.extract_sign' });
    expect(await verificationOf(sha.unknownAlgorithm)).toMatchObject({ verified: false, reason: 'gpg.error.extract_sign' });
    // Over the size bound: never read, and not echoed back.
    expect(await verificationOf(sha.huge)).toMatchObject({ verified: false, reason: 'gpg.error.extract_sign', signature: '', payload: '' });
    for (const b of ['tampered', 'truncated', 'wrongNamespace', 'huge', 'unknownAlgorithm']) {
      const res = await api.get(`${base}/branches/${b}`, { basic: alice });
      expect(res.status, res.text).toBe(200);
      expect(res.body.commit.verification.verified).toBe(false);
    }
  });
});

describe('trust models', () => {
  it('computes the status under each model and follows collaborators at once', async () => {
    const statuses = async () => {
      const v = await listVerifications();
      return { own: v.get(sha.own)!.trust_status, instance: v.get(sha.instance)!.trust_status, bob: v.get(sha.bob)!.trust_status };
    };
    expect(await statuses()).toEqual({ own: 'trusted', instance: 'trusted', bob: 'untrusted' });
    await setTrustModel('committer');
    expect(await statuses()).toEqual({ own: 'trusted', instance: 'unmatched', bob: 'trusted' });
    await setTrustModel('collaboratorcommitter');
    expect(await statuses()).toEqual({ own: 'trusted', instance: 'untrusted', bob: 'untrusted' });
    const added = await api.put(`${base}/collaborators/${bob.username}`, { basic: alice, body: { permission: 'write' } });
    expect(added.status, added.text).toBe(204);
    expect(await statuses()).toEqual({ own: 'trusted', instance: 'untrusted', bob: 'trusted' });
    await setTrustModel('default');
    expect(await statuses()).toEqual({ own: 'trusted', instance: 'trusted', bob: 'trusted' });
  });

  it('refuses unknown trust models with 422 on create and edit', async () => {
    expectClientError(await api.post('/user/repos', { basic: alice, body: { name: uniqueName('r'), trust_model: 'everyone' } }), 422);
    expectClientError(await api.patch(base, { basic: alice, body: { trust_model: 'everyone' } }), 422);
    const created = await api.post('/user/repos', { basic: alice, body: { name: uniqueName('r'), trust_model: 'committer' } });
    expect(created.status, created.text).toBe(201);
  });
});

describe('key changes', () => {
  it('verify and unverify at once when keys are verified, deleted and added', async () => {
    // The unverified key becomes verified: its commit verifies.
    const token = await api.get('/user/ssh_key_token', { basic: alice });
    const verified = await api.post('/user/ssh_key_verify', {
      basic: alice,
      body: { key_id: aliceUnverifiedKeyId, signature: await sshSign(keys.aliceUnverified.privateKeyPath, token.text) },
    });
    expect(verified.status, verified.text).toBe(200);
    expect(await verificationOf(sha.unverifiedKey)).toMatchObject({ verified: true });

    // The verified key is deleted: its commit no longer verifies.
    expect((await api.delete(`/user/keys/${aliceVerifiedKeyId}`, { basic: alice })).status).toBe(204);
    expect(await verificationOf(sha.own)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
    // Added again (unverified), still not; verified, again.
    const again = await addSshKey(alice, keys.aliceVerified, false);
    expect(await verificationOf(sha.own)).toMatchObject({ verified: false });
    const t2 = await api.get('/user/ssh_key_token', { basic: alice });
    const ok = await api.post('/user/ssh_key_verify', { basic: alice, body: { key_id: again, signature: await sshSign(keys.aliceVerified.privateKeyPath, t2.text) } });
    expect(ok.status, ok.text).toBe(200);
    expect(await verificationOf(sha.own)).toMatchObject({ verified: true });
    // bob's key signing alice's commit never verifies for alice (Gitea tries the committer's keys only).
    expect(await verificationOf(sha.othersKey)).toMatchObject({ verified: false });
  });
});
