import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IdentitySubjects, type ActorDto, type SigningKeysReply } from '@cairn/contracts';
import { Gpg, sshKeyPair, sshSign } from '../../../../test/support/signing-tools.js';
import { workspace, type Workspace } from '../../../../test/support/git.js';
import { actorOf, startIdentityTestEnv, type IdentityTestEnv } from '../../test/identity-test-env.js';
import { GpgKeysService } from '../gpg/gpg-keys.service.js';
import { KeysService } from '../keys/keys.service.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { UsersService } from '../users/users.service.js';

describe('identity.signing.keys (integration)', () => {
  let env: IdentityTestEnv;
  let ws: Workspace;
  let gpg: Gpg;
  let keys: KeysService;
  let gpgKeys: GpgKeysService;
  let alice: ActorDto;
  let bob: ActorDto;
  let root: ActorDto;

  const ask = (emails: string[], gpgKeyIds: string[] = []): Promise<SigningKeysReply> =>
    env.rpc.send(IdentitySubjects.signingKeys, { emails, gpgKeyIds });
  const versionOf = async (email: string) => (await ask([email])).byEmail[email].keysVersion;

  /** Adds an SSH key for `actor` and proves it with `ssh-keygen -Y sign` over the current token. */
  async function verifiedSshKey(actor: ActorDto) {
    const pair = await sshKeyPair(ws.dir('ssh'));
    const key = await keys.create(actor, { title: `k${Math.random()}`, key: pair.publicKey });
    const token = await gpgKeys.token(actor);
    await keys.verify(actor, { key_id: key.id, signature: await sshSign(pair.privateKeyPath, token) });
    return key;
  }

  beforeAll(async () => {
    env = await startIdentityTestEnv();
    ws = workspace('cairn-it-signing-');
    gpg = new Gpg(ws.dir('gnupg'));
    keys = env.get(KeysService);
    gpgKeys = env.get(GpgKeysService);
    alice = actorOf(await env.createUser('alice'));
    bob = actorOf(await env.createUser('bob'));
    root = actorOf(await env.createUser('root', { admin: true }));
  });
  afterAll(async () => {
    await env?.close();
    ws?.cleanup();
  });

  it('finds accounts by primary e-mail (any case) and no-reply address, not unknown ones', async () => {
    const reply = await ask(['ALICE@example.com', 'Alice@NoReply.cairn.test', 'nobody@example.com', 'bob@noreply.elsewhere.test']);
    expect(Object.keys(reply.byEmail).sort()).toEqual(['alice@example.com', 'alice@noreply.cairn.test']);
    expect(reply.byEmail['alice@example.com'].user).toMatchObject({ id: alice.id, login: 'alice', email: 'alice@example.com' });
    expect(reply.byEmail['alice@noreply.cairn.test'].user.id).toBe(alice.id);
    expect(reply.byEmail['alice@example.com']).toMatchObject({ activatedEmails: ['alice@example.com'], noReplyEmail: 'alice@noreply.cairn.test' });
    expect(reply.byEmail['alice@example.com'].sshKeys).toEqual([]);
    expect(reply.byGpgKeyId).toEqual({});
  });

  it('lists only verified SSH keys, and every key change moves keysVersion', async () => {
    const v0 = await versionOf('alice@example.com');
    const pair = await sshKeyPair(ws.dir('ssh'));
    const key = await keys.create(alice, { title: 'laptop', key: pair.publicKey });
    const v1 = await versionOf('alice@example.com');
    expect(v1).not.toBe(v0);
    expect((await ask(['alice@example.com'])).byEmail['alice@example.com'].sshKeys).toEqual([]);

    const verified = await keys.verify(alice, { key_id: key.id, signature: await sshSign(pair.privateKeyPath, await gpgKeys.token(alice)) });
    expect(verified.verified).toBe(true);
    const after = (await ask(['alice@example.com'])).byEmail['alice@example.com'];
    expect(after.sshKeys).toEqual([{ id: key.id, fingerprint: key.fingerprint, content: key.key }]);
    expect(after.keysVersion).not.toBe(v1);

    // Someone else's key change leaves alice's version alone.
    await keys.create(bob, { title: 'bob', key: (await sshKeyPair(ws.dir('ssh'))).publicKey });
    expect(await versionOf('alice@example.com')).toBe(after.keysVersion);

    await keys.delete(alice, key.id);
    const gone = (await ask(['alice@example.com'])).byEmail['alice@example.com'];
    expect(gone.sshKeys).toEqual([]);
    expect(gone.keysVersion).not.toBe(after.keysVersion);
  });

  it('an e-mail change moves keysVersion', async () => {
    await env.createUser('carol');
    const before = await versionOf('carol@noreply.cairn.test');
    await env.get(UsersService).edit(root, 'carol', { email: 'carol@elsewhere.test' });
    const changed = await versionOf('carol@noreply.cairn.test');
    expect(changed).not.toBe(before);
    // Deactivating the account deactivates its address.
    await env.get(UsersService).edit(root, 'carol', { active: false });
    const inactive = (await ask(['carol@elsewhere.test'])).byEmail['carol@elsewhere.test'];
    expect(inactive.activatedEmails).toEqual([]);
    expect(inactive.keysVersion).not.toBe(changed);
  });

  it('returns OpenPGP keys with their subkeys, and owners by primary or subkey id', async () => {
    const key = await gpg.generate('Alice <alice@example.com>', 'ed25519', { signingSubkey: true });
    const before = await versionOf('alice@example.com');
    const added = await gpgKeys.create(alice, { armored_public_key: key.armoredPublic });
    const reply = await ask(['alice@example.com'], [key.keyId, key.subkeyIds[1], 'FFFFFFFFFFFFFFFF']);
    const owner = reply.byEmail['alice@example.com'];
    expect(owner.keysVersion).not.toBe(before);
    expect(owner.gpgKeys).toEqual([
      {
        id: added.id,
        keyId: key.keyId,
        subkeyIds: key.subkeyIds,
        armored: key.armoredPublic,
        emails: ['alice@example.com'],
        canSign: true,
        verified: false,
      },
    ]);
    expect(Object.keys(reply.byGpgKeyId).sort()).toEqual([key.keyId, key.subkeyIds[1]].sort());
    expect(reply.byGpgKeyId[key.subkeyIds[1]].user.id).toBe(alice.id);

    // Asked by key id only: the owner comes with all their keys.
    const byId = await ask([], [key.subkeyIds[0]]);
    expect(byId.byEmail).toEqual({});
    expect(byId.byGpgKeyId[key.subkeyIds[0]]).toMatchObject({ user: { id: alice.id }, keysVersion: owner.keysVersion });

    const v = owner.keysVersion;
    await gpgKeys.verify(alice, { key_id: key.keyId, armored_signature: await gpg.detachSign(key.keyId, await gpgKeys.token(alice)) });
    const verified = (await ask(['alice@example.com'])).byEmail['alice@example.com'];
    expect(verified.gpgKeys[0].verified).toBe(true);
    expect(verified.keysVersion).not.toBe(v);
    await gpgKeys.delete(alice, added.id);
    const deleted = (await ask(['alice@example.com'])).byEmail['alice@example.com'];
    expect(deleted.gpgKeys).toEqual([]);
    expect(deleted.keysVersion).not.toBe(verified.keysVersion);
  });

  it('answers many committers with the same number of queries as one (batched)', async () => {
    const prisma = env.get(PrismaService);
    const names = Array.from({ length: 12 }, (_, i) => `batch${i}`);
    for (const n of names) {
      const u = actorOf(await env.createUser(n));
      await verifiedSshKey(u);
    }
    const spies = [
      vi.spyOn(prisma.user, 'findMany'),
      vi.spyOn(prisma.publicKey, 'findMany'),
      vi.spyOn(prisma.gpgKey, 'findMany'),
    ];
    const calls = () => spies.reduce((n, s) => n + s.mock.calls.length, 0);
    try {
      await ask(['batch0@example.com']);
      const one = calls();
      spies.forEach((s) => s.mockClear());
      const all = await ask(names.map((n) => `${n}@example.com`), ['0123456789ABCDEF']);
      expect(Object.keys(all.byEmail)).toHaveLength(names.length);
      for (const n of names) expect(all.byEmail[`${n}@example.com`].sshKeys).toHaveLength(1);
      expect(calls()).toBe(one + 1); // + the key-id lookup
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
  });

  it('refuses oversized requests', async () => {
    await expect(env.rpc.send(IdentitySubjects.signingKeys, { emails: Array.from({ length: 501 }, (_, i) => `u${i}@x.test`) })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('deleting a user removes their OpenPGP keys', async () => {
    const dave = actorOf(await env.createUser('dave'));
    const key = await gpg.generate('Dave <dave@example.com>', 'rsa');
    await gpgKeys.create(dave, { armored_public_key: key.armoredPublic });
    await env.get(UsersService).delete(root, 'dave', async () => 0);
    const rows = await env.sql.query('SELECT count(*)::int AS n FROM identity.gpg_keys WHERE key_id = $1', [key.keyId]);
    expect(rows.rows[0].n).toBe(0);
    expect((await ask([], [key.keyId])).byGpgKeyId).toEqual({});
  });
});
