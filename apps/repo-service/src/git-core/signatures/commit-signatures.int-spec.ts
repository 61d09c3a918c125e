import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitOptions, ListCommitsRequest, RepoRefDto, UserDto } from '@cairn/contracts';
import type { BranchProtectionService } from '../../code/branch-protection/branch-protection.service.js';
import { BranchesService } from '../../code/branches/branches.service.js';
import { CommitUserDirectory } from '../../code/commits/commit-users.js';
import { CommitsService } from '../../code/commits/commits.service.js';
import { CatFilePool } from '@cairn/git';
import { GitReadContext } from '../git/git-read-context.js';
import { GitFixture, removeDir, tempDir } from '../../../../../test/support/git-fixture.js';
import { owner } from './testing/signing-owners.js';
import { testCommitVerifier } from './testing/test-verifier.js';

const ROOT_URL = 'http://cairn.test:3000/';
const repo: RepoRefDto = { id: 1, ownerId: 1, ownerName: 'sig', name: 'signed', defaultBranch: 'main', trustModel: 'collaborator' };
const ALL: CommitOptions = { stat: false, verification: true, files: false };

class NoUsers extends CommitUserDirectory {
  byEmails(): Promise<Map<string, UserDto>> {
    return Promise.resolve(new Map());
  }
}

/** Commits signed at test time by ssh-keygen and gpg, read through the commit, commit-list and branch services. */
describe('commit signatures through the read APIs (integration: git, ssh-keygen, gpg)', () => {
  let root: string;
  let pool: CatFilePool;
  let fx: GitFixture;
  const sha: Record<string, string> = {};
  let sshLine = '';
  let fingerprint = '';
  let gpgArmored = '';
  let gpgKeyId = '';
  let gnupgHome = '';

  beforeAll(() => {
    root = tempDir('cairn-it-signatures-');
    const keys = path.join(root, 'keys');
    const gnupg = path.join(root, 'gnupg');
    gnupgHome = gnupg;
    mkdirSync(keys);
    mkdirSync(gnupg, { mode: 0o700 });
    const run = (cmd: string, args: string[], env: Record<string, string> = {}) =>
      execFileSync(cmd, args, { env: { ...process.env, GNUPGHOME: gnupg, ...env } }).toString('utf8');
    run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'dana', '-f', path.join(keys, 'dana')]);
    sshLine = readFileSync(path.join(keys, 'dana.pub'), 'utf8').trim();
    fingerprint = run('ssh-keygen', ['-lf', path.join(keys, 'dana.pub')]).split(' ')[1];
    run('gpg', ['--batch', '--passphrase', '', '--quick-gen-key', 'Dana <dana@example.com>', 'ed25519', 'sign', 'never']);
    gpgArmored = run('gpg', ['--export', '--armor', 'dana@example.com']);
    gpgKeyId = run('gpg', ['--with-colons', '--list-keys', 'dana@example.com']).split('\n').find((l) => l.startsWith('pub:'))!.split(':')[4];

    fx = new GitFixture(root, 'sig', 'signed');
    const dana = { name: 'Dana', email: 'dana@example.com' };
    sha.unsigned = fx.commit({ message: 'unsigned', date: '2026-01-01T00:00:00Z', files: { a: '1' }, author: dana });
    fx.git('config', 'gpg.format', 'ssh');
    fx.git('config', 'user.signingkey', path.join(keys, 'dana.pub'));
    fx.git('config', 'commit.gpgsign', 'true');
    sha.ssh = fx.commit({ message: 'ssh', date: '2026-01-02T00:00:00Z', files: { a: '2' }, author: dana });
    fx.git('config', 'gpg.format', 'openpgp');
    fx.git('config', 'user.signingkey', 'dana@example.com');
    process.env.GNUPGHOME = gnupg; // the fixture's git runs with our environment
    sha.gpg = fx.commit({ message: 'gpg', date: '2026-01-03T00:00:00Z', files: { a: '3' }, author: dana });
    delete process.env.GNUPGHOME;
    fx.git('config', 'commit.gpgsign', 'false');
    fx.publish();
    pool = new CatFilePool({ maxProcesses: 2, idleTimeoutMs: 60_000 });
  });

  afterAll(() => {
    pool?.close();
    if (root) removeDir(root);
  });

  const NO_PROTECTION = { standingFor: () => Promise.resolve(new Map()) } as unknown as BranchProtectionService;

  const services = () => {
    const verifier = testCommitVerifier({ pool, repoRoot: root });
    const ctx = new GitReadContext(pool, root, ROOT_URL, 50);
    return {
      commits: new CommitsService(ctx, new NoUsers(), verifier.verifier),
      branches: new BranchesService(ctx, new NoUsers(), verifier.verifier, NO_PROTECTION),
      verifier: verifier.verifier,
      keys: verifier.keys,
    };
  };

  it('lists commits with their verification: SSH and OpenPGP by the committer\'s keys, unsigned as not signed', async () => {
    const s = services();
    s.keys.owners = [
      owner(5, 'dana', 'dana@example.com', {
        sshKeys: [{ id: 1, fingerprint, content: sshLine.split(' ').slice(0, 2).join(' ') }],
        gpgKeys: [{ id: 2, keyId: gpgKeyId, subkeyIds: [], armored: gpgArmored, emails: ['dana@example.com'], canSign: true, verified: true }],
      }),
    ];
    const page = await s.commits.list({ actor: null, repo, access: 'read', filter: {}, options: ALL } as ListCommitsRequest);
    const bySha = new Map(page.items.map((c) => [c.sha, c.commit.verification]));
    expect(bySha.get(sha.ssh)).toMatchObject({ verified: true, reason: `dana / ${fingerprint}`, signer: { name: 'dana', username: 'dana' }, trust_status: 'untrusted' });
    expect(bySha.get(sha.gpg)).toMatchObject({ verified: true, reason: `dana / ${gpgKeyId}`, trust_status: 'untrusted' });
    expect(bySha.get(sha.unsigned)).toMatchObject({ verified: false, reason: 'gpg.error.not_signed_commit', signature: '' });
    // The payload is what git signed: the object without its signature header.
    const raw = execFileSync('git', ['-C', path.join(root, 'sig', 'signed.git'), 'cat-file', 'commit', sha.ssh]).toString('utf8');
    expect(raw.replace(/gpgsig [^]*?-----END SSH SIGNATURE-----\n/, '')).toBe(bySha.get(sha.ssh)!.payload);
    expect(s.keys.calls).toBe(1);

    const bare = await s.commits.list({ actor: null, repo, access: 'read', filter: {}, options: { ...ALL, verification: false } } as ListCommitsRequest);
    expect(bare.items.every((c) => c.commit.verification === null)).toBe(true);
    expect(s.keys.calls).toBe(1); // verification=false asks for no keys
  });

  it('shows the same verification on the single commit, the branch and for commits verified by id', async () => {
    const s = services();
    s.keys.owners = [owner(5, 'dana', 'dana@example.com', { sshKeys: [{ id: 1, fingerprint, content: sshLine.split(' ').slice(0, 2).join(' ') }] })];
    const one = await s.commits.get({ actor: null, repo, access: 'read', sha: sha.ssh, options: ALL } as never);
    expect(one.commit.verification).toMatchObject({ verified: true });
    fx.git('branch', '-f', 'ssh-head', sha.ssh);
    fx.publish();
    const branch = await s.branches.get({ actor: null, repo, access: 'read', branch: 'ssh-head' } as never);
    expect(branch.commit.verification).toEqual(one.commit.verification);
    const main = await s.branches.get({ actor: null, repo, access: 'read', branch: 'main' } as never);
    expect(main.commit.verification).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' }); // gpg key not given here
    const byId = await s.verifier.verifyCommits(repo, [sha.ssh, sha.unsigned]);
    expect(byId.get(sha.ssh)).toEqual(one.commit.verification);
    expect(byId.get(sha.unsigned)).toMatchObject({ reason: 'gpg.error.not_signed_commit' });
  });

  it('verifies with the instance OpenPGP key, exported once from GNUPGHOME (SIGNING_FORMAT = openpgp)', async () => {
    const instance = testCommitVerifier({
      pool,
      repoRoot: root,
      env: { CAIRN__REPOSITORY_SIGNING__SIGNING_FORMAT: 'openpgp', CAIRN__REPOSITORY_SIGNING__SIGNING_KEY: gpgKeyId },
    });
    // The signing side exports the key with the service's GNUPGHOME (git's environment takes it from ours).
    process.env.GNUPGHOME = gnupgHome;
    const byId = await instance.verifier.verifyCommits(repo, [sha.gpg, sha.ssh]).finally(() => delete process.env.GNUPGHOME);
    expect(byId.get(sha.gpg)).toMatchObject({
      verified: true,
      reason: `Cairn / ${gpgKeyId}`,
      signer: { name: 'Cairn', email: 'cairn@instance.test', username: '' },
      // collaborator model: an instance signature is trusted
      trust_status: 'trusted',
    });
    // The instance OpenPGP key never verifies SSH signatures.
    expect(byId.get(sha.ssh)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
    // A key gpg does not have: nothing exported, nothing verified.
    const missing = testCommitVerifier({
      pool,
      repoRoot: root,
      env: { CAIRN__REPOSITORY_SIGNING__SIGNING_FORMAT: 'openpgp', CAIRN__REPOSITORY_SIGNING__SIGNING_KEY: '0123456789ABCDEF' },
    });
    process.env.GNUPGHOME = gnupgHome;
    const none = await missing.verifier.verifyCommits(repo, [sha.gpg]).finally(() => delete process.env.GNUPGHOME);
    expect(none.get(sha.gpg)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
  });
});
