import { describe, expect, it, vi } from 'vitest';
import type { RepoRefDto } from '@cairn/contracts';
import { parseCommitObject } from '@cairn/git';
import { SignatureChecker } from './signature-checker.js';
import { COMMITS, GPG_KEYS, SSH_KEYS } from './testing/signed-commits.fixtures.js';
import { owner } from './testing/signing-owners.js';
import { FixedTrust, testCommitVerifier } from './testing/test-verifier.js';

const repo: RepoRefDto = { id: 1, ownerId: 1, ownerName: 'o', name: 'r', defaultBranch: 'main' };
const sshKey = (k: { line: string; fingerprint: string }) => ({ id: 1, fingerprint: k.fingerprint, content: k.line.split(' ').slice(0, 2).join(' ') });

const setup = (env: Record<string, string> = {}, trust?: FixedTrust) => testCommitVerifier({ env, trust });

const page = (...raws: Buffer[]) => raws.map((raw, i) => ({ sha: `${i}`.padStart(40, '0'), commit: parseCommitObject(raw) }));

describe('CommitVerifier', () => {
  it('shows unsigned commits as Gitea does, without asking for keys', async () => {
    const { verifier, keys } = setup();
    const out = await verifier.verify(repo, page(COMMITS.unsigned));
    expect([...out.values()]).toEqual([
      { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '', trust_status: '' },
    ]);
    expect(keys.calls).toBe(0);
  });

  it('renders a verified signature: signer, reason, signature and payload as they are', async () => {
    const { verifier, keys } = setup();
    keys.owners.push(owner(7, 'alice', 'alice@example.com', { sshKeys: [sshKey(SSH_KEYS.alice_ed25519)] }));
    const [c] = page(COMMITS.ssh_ed25519);
    const v = (await verifier.verify(repo, [c])).get(c.sha)!;
    expect(v).toEqual({
      verified: true,
      reason: `alice / ${SSH_KEYS.alice_ed25519.fingerprint}`,
      signer: { name: 'alice', email: 'alice@example.com', username: 'alice' },
      signature: c.commit.signature!.armored,
      payload: c.commit.signature!.payload.toString('utf8'),
      // Alice is neither the repository's owner nor a collaborator.
      trust_status: 'untrusted',
    });
    expect(v.signature).toMatch(/^-----BEGIN SSH SIGNATURE-----\n[^ ]/);
    expect(v.payload).not.toContain('gpgsig');
  });

  it('asks for the keys once per page and verifies a page read again from the cache', async () => {
    const { verifier, keys } = setup();
    keys.owners.push(owner(7, 'alice', 'alice@example.com', { sshKeys: [sshKey(SSH_KEYS.alice_ed25519)] }));
    const checks = vi.spyOn(SignatureChecker.prototype, 'check');
    const commits = page(COMMITS.ssh_ed25519, COMMITS.ssh_rsa, COMMITS.gpg_alice, COMMITS.unsigned);
    const first = await verifier.verify(repo, commits);
    expect(keys.calls).toBe(1);
    expect(checks).toHaveBeenCalledTimes(3);
    const again = await verifier.verify(repo, commits);
    expect(keys.calls).toBe(2);
    expect(checks).toHaveBeenCalledTimes(3);
    expect([...again.entries()]).toEqual([...first.entries()]);
    checks.mockRestore();
  });

  it('follows key changes at once: a new keysVersion is a new cache entry', async () => {
    const { verifier, keys } = setup();
    const [c] = page(COMMITS.ssh_rsa);
    keys.owners.push(owner(7, 'alice', 'alice@example.com', { keysVersion: 'v1' }));
    expect((await verifier.verify(repo, [c])).get(c.sha)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
    keys.owners[0] = owner(7, 'alice', 'alice@example.com', { keysVersion: 'v2', sshKeys: [sshKey(SSH_KEYS.alice_rsa)] });
    expect((await verifier.verify(repo, [c])).get(c.sha)).toMatchObject({ verified: true });
    keys.owners[0] = owner(7, 'alice', 'alice@example.com', { keysVersion: 'v3' });
    expect((await verifier.verify(repo, [c])).get(c.sha)).toMatchObject({ verified: false });
  });

  it('verifies OpenPGP signatures by the issuer\'s key, whose owner is looked up in the same call', async () => {
    const { verifier, keys } = setup();
    const bobKey = { id: 2, keyId: GPG_KEYS.bob.keyId, subkeyIds: [], armored: GPG_KEYS.bob.armored, emails: ['bob@example.com'], canSign: true, verified: true };
    keys.owners.push(owner(9, 'bob', 'bob@example.com', { gpgKeys: [bobKey] }));
    const [c] = page(COMMITS.gpg_bob); // committed by alice, who has no account
    expect((await verifier.verify(repo, [c])).get(c.sha)).toMatchObject({
      verified: true,
      reason: `bob / ${GPG_KEYS.bob.keyId}`,
      signer: { name: 'bob', email: 'bob@example.com', username: 'bob' },
      trust_status: 'unmatched',
    });
    expect(keys.calls).toBe(1);
  });

  it('computes the trust status under the repository\'s model, reading the repository only when needed', async () => {
    const trusted = SSH_KEYS.instance_ed25519.line;
    const trust = new FixedTrust('default', [7]);
    const { verifier, keys } = setup({ CAIRN__REPOSITORY_SIGNING__TRUSTED_SSH_KEYS: trusted }, trust);
    keys.owners.push(owner(7, 'alice', 'alice@example.com', { sshKeys: [sshKey(SSH_KEYS.alice_ed25519)] }));
    const commits = page(COMMITS.ssh_ed25519, COMMITS.ssh_instance);
    const status = async (r: RepoRefDto) => [...(await verifier.verify(r, commits)).values()].map((v) => v.trust_status);
    expect(await status(repo)).toEqual(['trusted', 'trusted']); // collaborator (the default model), alice collaborates
    expect(trust.reads).toBe(1);
    expect(await status({ ...repo, trustModel: 'collaboratorcommitter' })).toEqual(['trusted', 'untrusted']);
    expect(await status({ ...repo, trustModel: 'committer' })).toEqual(['trusted', 'unmatched']);
    expect(trust.reads).toBe(2); // the committer model needs no membership
    trust.collaborators = [];
    expect(await status({ ...repo, trustModel: 'collaborator' })).toEqual(['untrusted', 'trusted']);
  });

  it('trusts members of an organization\'s teams that have the repository (or all of them) and its owners', async () => {
    const trust = new FixedTrust('collaborator', [], 100);
    trust.ownerKind = 'organization';
    trust.teamIds = [5];
    const team = (id: number, includesAllRepositories: boolean) =>
      ({ id, name: 't', permission: 'write', includesAllRepositories, canCreateOrgRepo: false }) as const;
    const { verifier, keys } = setup({}, trust);
    keys.owners.push(owner(7, 'alice', 'alice@example.com', { sshKeys: [sshKey(SSH_KEYS.alice_ed25519)] }));
    const [c] = page(COMMITS.ssh_ed25519);
    const status = async () => (await verifier.verify(repo, [c])).get(c.sha)!.trust_status;
    expect(await status()).toBe('untrusted');
    trust.standings.set(7, { isMember: true, isOwner: false, teams: [team(6, false)] });
    expect(await status()).toBe('untrusted'); // a member, but not of a team with the repository
    trust.standings.set(7, { isMember: true, isOwner: false, teams: [team(5, false)] });
    expect(await status()).toBe('trusted');
    trust.standings.set(7, { isMember: true, isOwner: false, teams: [team(6, true)] });
    expect(await status()).toBe('trusted');
    trust.standings.set(7, { isMember: true, isOwner: true, teams: [] });
    expect(await status()).toBe('trusted');
  });

  it('shows signatures unverified with a reason when identity-service cannot answer (the instance keys still verify)', async () => {
    const { verifier, keys } = setup({ CAIRN__REPOSITORY_SIGNING__TRUSTED_SSH_KEYS: SSH_KEYS.instance_ed25519.line });
    keys.lookup = () => Promise.reject(new Error('no responders'));
    const out = [...(await verifier.verify(repo, page(COMMITS.ssh_ed25519, COMMITS.ssh_instance))).values()];
    expect(out.map((v) => [v.verified, v.reason])).toEqual([
      [false, 'gpg.error.failed_retrieval_gpg_keys'],
      [true, `Cairn / ${SSH_KEYS.instance_ed25519.fingerprint}`],
    ]);
    expect(out[1].signer).toEqual({ name: 'Cairn', email: 'cairn@instance.test', username: '' });
  });
});
