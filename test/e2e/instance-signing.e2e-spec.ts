/**
 * Commits Cairn creates are signed with the instance key (Gitea's `tests/integration/gpg_ssh_git_test.go`
 * `testGitSigning`): repositories auto-initialised and pull requests merged under each `[repository.signing]`
 * INITIAL_COMMIT / MERGES rule, checked with the real git (`gpgsig` header, `git verify-commit` against the instance
 * key only, the committer). One suite with a fresh ed25519 SSH key (SIGNING_FORMAT = ssh), restarting repo-service
 * with other rules; one with a fresh OpenPGP key in its own GNUPGHOME. Plus the signing-key endpoints.
 * File changes through the contents API follow CRUD_ACTIONS, and the API's `verification` agrees with git.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareRepoPath, commitAll, gitRunner, httpCloneUrl, run, workspace, writeFiles, type Git } from '../support/git.js';
import { createToken, createUser, http, uniqueName, type Account } from '../support/session.js';
import { commitObject, generateGpgKey, importGpgKey, verifiesWithGpg, verifiesWithSshKey } from '../support/signing.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { totpCode, totpStep } from '../support/totp.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

const SIGNING = 'CAIRN__REPOSITORY_SIGNING__';
const INSTANCE = { [`${SIGNING}SIGNING_NAME`]: 'gitea', [`${SIGNING}SIGNING_EMAIL`]: 'gitea@fake.local' };
const rules = (initialCommit: string, merges: string, extra: Record<string, string> = {}) => ({
  [`${SIGNING}INITIAL_COMMIT`]: initialCommit,
  [`${SIGNING}MERGES`]: merges,
  ...extra,
});

/** A user with a token (made before any two-factor enrolment, which would ask Basic auth for a code). */
interface User extends Account {
  token: string;
}

/** One suite and what every test needs to create, push to and inspect repositories. */
class World {
  suite!: TestSuite;
  ws = workspace('cairn-e2e-signing-');
  git: Git = gitRunner(this.ws.dir('home'));
  admin!: Account;

  async start(env: Record<string, string>): Promise<void> {
    this.suite = await startTestSuite({ env: { ...FAST_PASSWORD_HASH, ...INSTANCE, ...env } });
    this.admin = await this.suite.createAdmin();
  }

  async stop(): Promise<void> {
    await this.suite?.stop();
    this.ws.cleanup();
  }

  get api() {
    return http(this.suite);
  }

  async user(stem: string): Promise<User> {
    const account = await createUser(this.suite, this.admin, uniqueName(stem));
    return { ...account, token: await createToken(this.suite, account) };
  }

  /** Enrols two-factor authentication through the API. */
  async enrolTwoFactor(user: User): Promise<void> {
    const started = await this.api.post('/user/2fa', { basic: user });
    expect(started.status, started.text).toBe(201);
    const confirmed = await this.api.post('/user/2fa/confirm', { basic: user, body: { passcode: totpCode(started.body.secret, totpStep()) } });
    expect(confirmed.status, confirmed.text).toBe(200);
  }

  /** Restarts repo-service with other signing settings (on top of the suite's). */
  async restartRepoService(env: Record<string, string>): Promise<void> {
    await this.suite.stopApp('repo-service');
    await this.suite.startApp('repo-service', env);
  }

  async autoInit(user: User): Promise<{ name: string; bare: string; tip: string }> {
    const name = uniqueName('signed');
    const created = await this.api.post('/user/repos', { token: user.token, body: { name, auto_init: true } });
    expect(created.status, created.text).toBe(201);
    const bare = bareRepoPath(this.suite.dataDir, user.username, name);
    return { name, bare, tip: await this.git.ok(['--git-dir', bare, 'rev-parse', 'refs/heads/main']) };
  }

  /**
   * Pushes a branch with one commit per file from main; `signWith` (an SSH public key path) signs them locally with
   * that key.
   */
  async pushBranch(user: User, repo: string, branch: string, files: Record<string, string>, signWith?: string): Promise<void> {
    const work = this.ws.dir(`work-${repo}-${branch}`);
    const url = httpCloneUrl(this.suite.baseUrl, user.username, repo, { username: user.username, secret: user.token });
    await this.git.ok(['clone', '-q', url, work]);
    await this.git.ok(['checkout', '-q', '-b', branch], { cwd: work });
    for (const [file, content] of Object.entries(files)) {
      if (signWith) {
        writeFiles(work, { [file]: content });
        await this.git.ok(['add', '--all'], { cwd: work });
        await this.git.ok(['-c', 'gpg.format=ssh', '-c', `user.signingkey=${signWith}`, 'commit', '-q', '-S', '-m', `add ${file}`], { cwd: work });
      } else {
        await commitAll(this.git, work, { [file]: content }, `add ${file}`);
      }
    }
    await this.git.ok(['push', '-q', 'origin', branch], { cwd: work });
  }

  /** Opens a pull request of `branch` into main and merges it with `style`; resolves with main's new tip. */
  async merge(user: User, repo: string, branch: string, style = 'merge'): Promise<string> {
    const path_ = `/repos/${user.username}/${repo}`;
    const pr = await this.api.post(`${path_}/pulls`, { token: user.token, body: { head: branch, base: 'main', title: branch } });
    expect(pr.status, pr.text).toBe(201);
    const merged = await this.api.post(`${path_}/pulls/${pr.body.number}/merge`, { token: user.token, body: { Do: style } });
    expect(merged.status, merged.text).toBe(200);
    return this.git.ok(['--git-dir', bareRepoPath(this.suite.dataDir, user.username, repo), 'rev-parse', 'refs/heads/main']);
  }
}

describe('instance signing with an SSH key (SIGNING_FORMAT = ssh)', () => {
  const w = new World();
  let keyPath: string;
  let publicKey: string;
  let alice: User;
  let bob: User;
  let carol: User;
  /** A repository auto-initialised and merged into while everything was signed. */
  let signedRepo: { name: string; bare: string; tip: string };

  const isInstanceSigned = (bare: string, sha: string) => verifiesWithSshKey(w.git, bare, sha, publicKey, w.ws.dir('allowed'));

  beforeAll(async () => {
    const keys = w.ws.dir('instance-key');
    keyPath = path.join(keys, 'instance');
    const made = await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'gitea', '-f', keyPath]);
    expect(made.code, made.stderr).toBe(0);
    publicKey = readFileSync(`${keyPath}.pub`, 'utf8').trim();
    await w.start({
      [`${SIGNING}SIGNING_KEY`]: `${keyPath}.pub`,
      [`${SIGNING}SIGNING_FORMAT`]: 'ssh',
      ...rules('always', 'always'),
    });
    alice = await w.user('alice');
    bob = await w.user('bob');
    carol = await w.user('carol');
    await w.enrolTwoFactor(carol);
  }, 300_000);

  afterAll(() => w.stop());

  it('serves the public key at /signing-key.pub and per repository; .gpg is 404 "signing key format is ssh"', async () => {
    const pub = await w.api.get('/signing-key.pub');
    expect(pub.status, pub.text).toBe(200);
    expect(pub.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(pub.text.trim()).toBe(publicKey);
    const gpg = await w.api.get('/signing-key.gpg');
    expect(gpg.status).toBe(404);
    expect(gpg.body.message).toBe('signing key format is ssh');

    const repo = uniqueName('keys');
    const created = await w.api.post('/user/repos', { token: alice.token, body: { name: repo, private: true } });
    expect(created.status, created.text).toBe(201);
    const own = await w.api.get(`/repos/${alice.username}/${repo}/signing-key.pub`, { token: alice.token });
    expect(own.status, own.text).toBe(200);
    expect(own.text.trim()).toBe(publicKey);
    const ownGpg = await w.api.get(`/repos/${alice.username}/${repo}/signing-key.gpg`, { token: alice.token });
    expect(ownGpg.status).toBe(404);
    expect(ownGpg.body.message).toBe('signing key format is ssh');
    // Read access is needed: another user does not even learn the repository exists.
    const other = await w.api.get(`/repos/${alice.username}/${repo}/signing-key.pub`, { token: bob.token });
    expect(other.status).toBe(404);
    expect(other.body.message).not.toMatch(/signing key/);
  });

  it('INITIAL_COMMIT = always, MERGES = always: auto_init, merge and squash commits are signed by the instance key', async () => {
    signedRepo = await w.autoInit(alice);
    const initial = await commitObject(w.git, signedRepo.bare, signedRepo.tip);
    expect(initial.signed).toBe(true);
    expect(await isInstanceSigned(signedRepo.bare, signedRepo.tip)).toBe(true);
    // Trust model collaborator (the default): the user stays the committer.
    expect(initial.committerEmail.startsWith(`${alice.username}@`)).toBe(true);

    // A branch from the initial commit, brought up to date after the merges below.
    await w.pushBranch(alice, signedRepo.name, 'behind', { 'z.txt': 'z\n' });
    await w.pushBranch(alice, signedRepo.name, 'feature', { 'a.txt': 'a\n' });
    const merged = await w.merge(alice, signedRepo.name, 'feature');
    expect((await commitObject(w.git, signedRepo.bare, merged)).raw).toMatch(/^parent [0-9a-f]{40}\nparent [0-9a-f]{40}$/m);
    expect(await isInstanceSigned(signedRepo.bare, merged)).toBe(true);

    await w.pushBranch(alice, signedRepo.name, 'squashed', { 'b.txt': 'b\n', 'c.txt': 'c\n' });
    const squashed = await w.merge(alice, signedRepo.name, 'squashed', 'squash');
    expect(await isInstanceSigned(signedRepo.bare, squashed)).toBe(true);
    signedRepo.tip = squashed;

    // Update branch (merge style): the merge of main into the head is signed as a merge.
    const p = `/repos/${alice.username}/${signedRepo.name}/pulls`;
    const pr = await w.api.post(p, { token: alice.token, body: { head: 'behind', base: 'main', title: 'behind' } });
    expect(pr.status, pr.text).toBe(201);
    const updated = await w.api.post(`${p}/${pr.body.number}/update`, { token: alice.token });
    expect(updated.status, updated.text).toBe(200);
    const head = await w.git.ok(['--git-dir', signedRepo.bare, 'rev-parse', 'refs/heads/behind']);
    expect((await commitObject(w.git, signedRepo.bare, head)).raw).toContain(`parent ${squashed}`);
    expect(await isInstanceSigned(signedRepo.bare, head)).toBe(true);
  });

  it('INITIAL_COMMIT = never, MERGES = never: nothing is signed (unsigned merging)', async () => {
    await w.restartRepoService(rules('never', 'never'));
    const repo = await w.autoInit(alice);
    expect((await commitObject(w.git, repo.bare, repo.tip)).signed).toBe(false);
    await w.pushBranch(alice, repo.name, 'feature', { 'a.txt': 'a\n' });
    const merged = await w.merge(alice, repo.name, 'feature');
    expect((await commitObject(w.git, repo.bare, merged)).signed).toBe(false);
    // Unsigned merging: the API shows an unverified head with no signature.
    const head = await w.api.get(`/repos/${alice.username}/${repo.name}/branches/main`, { token: alice.token });
    expect(head.body.commit.verification, head.text).toMatchObject({ verified: false, signature: '' });
  });

  it('INITIAL_COMMIT = pubkey: a user without GPG keys gets an unsigned initial commit; MERGES = basesigned follows the base', async () => {
    await w.restartRepoService(rules('pubkey', 'basesigned'));
    const unsignedBase = await w.autoInit(alice);
    expect((await commitObject(w.git, unsignedBase.bare, unsignedBase.tip)).signed).toBe(false);
    // base-signed merging onto an unsigned base: not signed.
    await w.pushBranch(alice, unsignedBase.name, 'feature', { 'a.txt': 'a\n' });
    const onUnsigned = await w.merge(alice, unsignedBase.name, 'feature');
    expect((await commitObject(w.git, unsignedBase.bare, onUnsigned)).signed).toBe(false);
    // Onto a base the instance signed: signed.
    await w.pushBranch(alice, signedRepo.name, 'on-signed', { 'd.txt': 'd\n' });
    const onSigned = await w.merge(alice, signedRepo.name, 'on-signed');
    expect(await isInstanceSigned(signedRepo.bare, onSigned)).toBe(true);
  });

  it('INITIAL_COMMIT = twofa: signed for a user with two-factor authentication only; committer trust model commits as the signer', async () => {
    await w.restartRepoService(rules('twofa', 'commitssigned', { [`${SIGNING}DEFAULT_TRUST_MODEL`]: 'committer' }));
    const withoutTwoFactor = await w.autoInit(alice);
    expect((await commitObject(w.git, withoutTwoFactor.bare, withoutTwoFactor.tip)).signed).toBe(false);
    const withTwoFactor = await w.autoInit(carol);
    const initial = await commitObject(w.git, withTwoFactor.bare, withTwoFactor.tip);
    expect(await isInstanceSigned(withTwoFactor.bare, withTwoFactor.tip)).toBe(true);
    expect(initial.committerEmail).toBe('gitea@fake.local');
  });

  it('MERGES = commitssigned: signed when every commit of the head is signed, not when one is unsigned', async () => {
    // (Settings of the previous test: commitssigned, committer trust model.)
    const repo = await w.autoInit(carol);
    await w.pushBranch(carol, repo.name, 'all-signed', { 'a.txt': 'a\n', 'b.txt': 'b\n' }, `${keyPath}.pub`);
    const signedMerge = await w.merge(carol, repo.name, 'all-signed');
    expect(await isInstanceSigned(repo.bare, signedMerge)).toBe(true);
    expect((await commitObject(w.git, repo.bare, signedMerge)).committerEmail).toBe('gitea@fake.local');
    // Gitea's matrix reads the head through the API: commits-signed merging gives a verified head.
    const head = await w.api.get(`/repos/${carol.username}/${repo.name}/branches/main`, { token: carol.token });
    expect(head.body.commit.verification, head.text).toMatchObject({ verified: true, signer: { email: 'gitea@fake.local' } });

    await w.pushBranch(carol, repo.name, 'one-unsigned', { 'c.txt': 'c\n' });
    const unsignedMerge = await w.merge(carol, repo.name, 'one-unsigned');
    const commit = await commitObject(w.git, repo.bare, unsignedMerge);
    expect(commit.signed).toBe(false);
    expect(commit.committerEmail.startsWith(`${carol.username}@`)).toBe(true);
  });

  it('MERGES = approved: signed once a writer approved and the base branch has a protection rule, as Gitea', async () => {
    await w.restartRepoService(rules('always', 'approved'));
    const repo = await w.autoInit(alice);
    const path_ = `/repos/${alice.username}/${repo.name}`;
    const collaborator = await w.api.put(`${path_}/collaborators/${bob.username}`, { token: alice.token, body: { permission: 'write' } });
    expect(collaborator.status, collaborator.text).toBe(204);
    const openPull = async (branch: string, file: string): Promise<number> => {
      await w.pushBranch(alice, repo.name, branch, { [file]: `${file}\n` });
      const pr = await w.api.post(`${path_}/pulls`, { token: alice.token, body: { head: branch, base: 'main', title: branch } });
      expect(pr.status, pr.text).toBe(201);
      return pr.body.number as number;
    };
    const approve = async (number: number) => {
      const review = await w.api.post(`${path_}/pulls/${number}/reviews`, { token: bob.token, body: { event: 'APPROVED', body: 'lgtm' } });
      expect(review.status, review.text).toBe(200);
    };
    const mergeTip = async (number: number): Promise<string> => {
      const merged = await w.api.post(`${path_}/pulls/${number}/merge`, { token: alice.token, body: { Do: 'merge' } });
      expect(merged.status, merged.text).toBe(200);
      return w.git.ok(['--git-dir', repo.bare, 'rev-parse', 'refs/heads/main']);
    };

    // Approved, but main has no protection rule: Gitea counts approvals under the rule only, so unsigned.
    const withoutRule = await openPull('no-rule', 'a.txt');
    await approve(withoutRule);
    expect((await commitObject(w.git, repo.bare, await mergeTip(withoutRule))).signed).toBe(false);

    const rule = await w.api.post(`${path_}/branch_protections`, { token: alice.token, body: { rule_name: 'main' } });
    expect(rule.status, rule.text).toBe(201);
    // A rule, but no approval: unsigned.
    const unapproved = await openPull('unapproved', 'b.txt');
    expect((await commitObject(w.git, repo.bare, await mergeTip(unapproved))).signed).toBe(false);
    // A rule and a writer's approval: signed by the instance.
    const approved = await openPull('approved', 'c.txt');
    await approve(approved);
    const signedMerge = await mergeTip(approved);
    expect(await isInstanceSigned(repo.bare, signedMerge)).toBe(true);
  });

  it('CRUD_ACTIONS = never / always / parentsigned: file changes through the API, and the API reports what git sees', async () => {
    const addFile = async (user: User, repo: string, file: string) => {
      const res = await w.api.post(`/repos/${user.username}/${repo}/contents/${file}`, {
        token: user.token,
        body: { content: Buffer.from(`${file}\n`).toString('base64') },
      });
      expect(res.status, res.text).toBe(201);
      return res.body as { commit: { sha: string }; verification: { verified: boolean; signature: string; signer: { email: string } | null } };
    };
    const branchVerification = async (user: User, repo: string) => {
      const res = await w.api.get(`/repos/${user.username}/${repo}/branches/main`, { token: user.token });
      expect(res.status, res.text).toBe(200);
      return res.body.commit.verification as { verified: boolean; signer: { email: string } | null };
    };

    await w.restartRepoService(rules('always', 'always', { [`${SIGNING}CRUD_ACTIONS`]: 'never' }));
    const repo = await w.autoInit(alice);
    // The instance-signed initial commit, as the API shows it (Gitea: signer is SIGNING_NAME/SIGNING_EMAIL).
    expect(await branchVerification(alice, repo.name)).toMatchObject({ verified: true, signer: { email: 'gitea@fake.local' } });
    const unsigned = await addFile(alice, repo.name, 'never.txt');
    expect(unsigned.verification).toMatchObject({ verified: false, signature: '' });
    expect((await commitObject(w.git, repo.bare, unsigned.commit.sha)).signed).toBe(false);

    await w.restartRepoService(rules('always', 'always', { [`${SIGNING}CRUD_ACTIONS`]: 'always' }));
    const signed = await addFile(alice, repo.name, 'always.txt');
    expect(signed.verification).toMatchObject({ verified: true, signer: { email: 'gitea@fake.local' } });
    expect(await isInstanceSigned(repo.bare, signed.commit.sha)).toBe(true);
    expect(await branchVerification(alice, repo.name)).toMatchObject({ verified: true, signer: { email: 'gitea@fake.local' } });

    // parentsigned: the parent above is instance-signed → signed; on top of an unsigned parent → unsigned.
    await w.restartRepoService(rules('never', 'always', { [`${SIGNING}CRUD_ACTIONS`]: 'parentsigned' }));
    const onSigned = await addFile(alice, repo.name, 'parent-signed.txt');
    expect(onSigned.verification.verified).toBe(true);
    const unsignedRepo = await w.autoInit(alice);
    expect(await branchVerification(alice, unsignedRepo.name)).toMatchObject({ verified: false });
    const onUnsigned = await addFile(alice, unsignedRepo.name, 'parent-unsigned.txt');
    expect(onUnsigned.verification).toMatchObject({ verified: false, signature: '' });
  });

  it('refuses to start with a clear message when the private key is not beside the public key', async () => {
    const lonely = path.join(w.ws.dir('lonely'), 'key.pub');
    await run('cp', [`${keyPath}.pub`, lonely]);
    await w.suite.stopApp('repo-service');
    await expect(w.suite.startApp('repo-service', { [`${SIGNING}SIGNING_KEY`]: lonely })).rejects.toThrow(
      /SIGNING_KEY: the private key of \S*\/key\.pub is missing: expected it at \S*\/key\b/,
    );
    await w.suite.startApp('repo-service');
  });
});

describe('instance signing with an OpenPGP key (gpg, SIGNING_FORMAT = openpgp)', () => {
  const w = new World();
  let gnupgHome: string;
  let alice: User;

  beforeAll(async () => {
    const key = await generateGpgKey(w.ws.dir('gnupg'));
    gnupgHome = key.gnupgHome;
    await w.start({
      GNUPGHOME: gnupgHome,
      [`${SIGNING}SIGNING_KEY`]: key.fingerprint,
      [`${SIGNING}SIGNING_FORMAT`]: 'openpgp',
      ...rules('always', 'always'),
    });
    alice = await w.user('alice');
  }, 300_000);

  afterAll(() => w.stop());

  it('signs auto_init and merges; the key served at /signing-key.gpg alone verifies them', async () => {
    const repo = await w.autoInit(alice);
    expect((await commitObject(w.git, repo.bare, repo.tip)).raw).toMatch(/^gpgsig -----BEGIN PGP SIGNATURE-----$/m);
    expect(await verifiesWithGpg(w.git, repo.bare, repo.tip, gnupgHome)).toBe(true);
    await w.pushBranch(alice, repo.name, 'feature', { 'a.txt': 'a\n' });
    const merged = await w.merge(alice, repo.name, 'feature');

    const served = await w.api.get('/signing-key.gpg');
    expect(served.status, served.text).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(served.text).toMatch(/^-----BEGIN PGP PUBLIC KEY BLOCK-----/);
    const fresh = w.ws.dir('fresh-gnupg');
    await importGpgKey(fresh, served.text);
    expect(await verifiesWithGpg(w.git, repo.bare, repo.tip, fresh)).toBe(true);
    expect(await verifiesWithGpg(w.git, repo.bare, merged, fresh)).toBe(true);

    const perRepo = await w.api.get(`/repos/${alice.username}/${repo.name}/signing-key.gpg`, { token: alice.token });
    expect(perRepo.status).toBe(200);
    expect(perRepo.text).toBe(served.text);
    const pub = await w.api.get('/signing-key.pub');
    expect(pub.status).toBe(404);
    expect(pub.body.message).toBe('signing key format is openpgp');
  });

  it('INITIAL_COMMIT = never, MERGES = never: unsigned', async () => {
    await w.restartRepoService(rules('never', 'never'));
    const repo = await w.autoInit(alice);
    expect((await commitObject(w.git, repo.bare, repo.tip)).signed).toBe(false);
    await w.pushBranch(alice, repo.name, 'feature', { 'a.txt': 'a\n' });
    expect((await commitObject(w.git, repo.bare, await w.merge(alice, repo.name, 'feature'))).signed).toBe(false);
  });
});

describe('no signing key (SIGNING_KEY = none)', () => {
  const w = new World();
  beforeAll(() => w.start({ [`${SIGNING}SIGNING_KEY`]: 'none' }), 300_000);
  afterAll(() => w.stop());

  it('answers 404 "no signing key" for both formats and signs nothing', async () => {
    for (const file of ['/signing-key.gpg', '/signing-key.pub']) {
      const res = await w.api.get(file);
      expect(res.status, file).toBe(404);
      expect(res.body.message).toBe('no signing key');
    }
    const alice = await w.user('alice');
    const repo = await w.autoInit(alice);
    expect((await commitObject(w.git, repo.bare, repo.tip)).signed).toBe(false);
  });
});
