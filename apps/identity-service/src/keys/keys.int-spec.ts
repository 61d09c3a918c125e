import { generateKeyPairSync } from 'node:crypto';
import sshpk from 'sshpk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type ActorDto } from '@cairn/contracts';
import { actorOf, startIdentityTestEnv, type IdentityTestEnv } from '../../test/identity-test-env.js';
import { KeyUsage } from './key-usage.js';
import { KeysService } from './keys.service.js';

function ed25519(comment = 'dev@laptop'): string {
  const key = sshpk.generatePrivateKey('ed25519').toPublic();
  key.comment = comment;
  return key.toString('ssh');
}
function rsa(bits: number): string {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }) as string, 'pem').toString('ssh');
}
const blobOf = (text: string) => text.split(' ')[1];

describe('public keys (integration)', () => {
  let env: IdentityTestEnv;
  let keys: KeysService;
  let alice: ActorDto;
  let bob: ActorDto;
  let admin: ActorDto;

  const lastUsed = async (id: number) =>
    (await env.sql.query('SELECT last_used_at FROM identity.public_keys WHERE id = $1', [id])).rows[0].last_used_at as Date | null;

  beforeAll(async () => {
    env = await startIdentityTestEnv();
    keys = env.get(KeysService);
    alice = actorOf(await env.createUser('alice'));
    bob = actorOf(await env.createUser('bob'));
    admin = actorOf(await env.createUser('root', { admin: true }));
  });
  afterAll(async () => {
    await env?.close();
  });

  it('adds a key, normalised and fingerprinted, Gitea-shaped for the owner', async () => {
    const text = ed25519();
    const key = await keys.create(alice, { title: 'laptop', key: `${text}\n` });
    expect(key).toMatchObject({
      title: 'laptop',
      key: text.split(' ').slice(0, 2).join(' '),
      url: `http://cairn.test:3000/api/v1/user/keys/${key.id}`,
      last_used_at: null,
      read_only: false,
      key_type: 'user',
      user: { login: 'alice' },
    });
    expect(key.fingerprint).toBe(sshpk.parseKey(text, 'ssh').fingerprint('sha256').toString());
    expect(key.created_at).toMatch(/Z$/);
  });

  it('refuses duplicates (by anyone), unparsable keys and too small RSA keys', async () => {
    const text = ed25519();
    await keys.create(alice, { title: 'first', key: text });
    await expect(keys.create(bob, { title: 'stolen', key: text })).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: 'key already exists',
    });
    await expect(keys.create(alice, { title: 'junk', key: 'ssh-ed25519 AAAAnotakey' })).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: 'invalid public key',
    });
    await expect(keys.create(alice, { title: 'small', key: rsa(2048) })).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: 'invalid public key: rsa key of 2048 bits is too small: the minimum is 3071 bits',
    });
    await expect(keys.create(alice, { title: 'big', key: rsa(3072) })).resolves.toMatchObject({ title: 'big' });
    await expect(keys.create(alice, { title: 'big', key: ed25519() })).rejects.toMatchObject({ code: ErrorCode.UNPROCESSABLE });
  });

  it('lists own keys with owner fields and another user\'s without; filters by fingerprint', async () => {
    const own = await keys.list(alice, undefined, {});
    expect(own.total).toBe(3);
    expect(own.items.every((k) => k.user?.login === 'alice' && k.key_type === 'user')).toBe(true);
    const theirs = await keys.list(bob, 'alice', {});
    expect(theirs.total).toBe(3);
    expect(theirs.items.every((k) => k.user === undefined && k.key_type === undefined && k.read_only === undefined)).toBe(true);
    expect((await keys.list(admin, 'alice', {})).items[0].user?.login).toBe('alice');
    const fp = own.items[1].fingerprint;
    expect((await keys.list(alice, undefined, { fingerprint: fp })).items.map((k) => k.fingerprint)).toEqual([fp]);
    await expect(keys.list(bob, 'nobody', {})).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });

  it("gets and deletes only one's own keys (another user's key → NOT_FOUND); admins may delete", async () => {
    const key = await keys.create(bob, { title: 'bobs', key: ed25519() });
    await expect(keys.get(bob, key.id)).resolves.toMatchObject({ id: key.id });
    await expect(keys.get(alice, key.id)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(keys.delete(alice, key.id)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await keys.delete(admin, key.id);
    await expect(keys.get(bob, key.id)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    const mine = await keys.create(bob, { title: 'again', key: ed25519() });
    await keys.delete(bob, mine.id);
    await expect(keys.delete(bob, mine.id)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });

  it('checks deploy keys: the same rules, never a user\'s key; a deploy key cannot become a user\'s key', async () => {
    const text = ed25519('ci@deploy');
    const fingerprint = sshpk.parseKey(text, 'ssh').fingerprint('sha256').toString();
    await expect(keys.checkDeploy(`${text}\n`)).resolves.toEqual({ content: text.split(' ').slice(0, 2).join(' '), fingerprint });
    await expect(keys.checkDeploy('ssh-ed25519 AAAAnotakey')).rejects.toMatchObject({ code: ErrorCode.UNPROCESSABLE });
    await expect(keys.checkDeploy(rsa(2048))).rejects.toMatchObject({ code: ErrorCode.UNPROCESSABLE });
    await expect(keys.create(alice, { title: 'ci', key: text }, async (fp) => fp === fingerprint)).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: 'key already exists (as a deploy key)',
    });
    await keys.create(alice, { title: 'ci', key: text });
    await expect(keys.checkDeploy(text)).rejects.toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message: 'Key content has been used as non-deploy key',
    });
  });

  it("lets a site admin add and delete another user's keys (only that user's, through their path)", async () => {
    const given = await keys.create(admin, { title: 'from admin', key: ed25519() }, undefined, 'bob');
    expect(given.user).toMatchObject({ login: 'bob' });
    await expect(keys.get(bob, given.id)).resolves.toMatchObject({ id: given.id });
    await expect(keys.create(alice, { title: 'x', key: ed25519() }, undefined, 'bob')).rejects.toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
    await expect(keys.create(admin, { title: 'x', key: ed25519() }, undefined, 'nobody')).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(keys.delete(admin, given.id, 'alice')).rejects.toMatchObject({ code: ErrorCode.PERMISSION_DENIED });
    await keys.delete(admin, given.id, 'bob');
    await expect(keys.get(bob, given.id)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });

  it('resolves the wire blob to the owner (via ssh) and touches last_used_at once per window', async () => {
    const text = ed25519();
    const key = await keys.create(bob, { title: 'ssh', key: text });
    const usage = env.get(KeyUsage);
    const writes = usage.recorder.writes;
    const reply = await keys.resolve(blobOf(text));
    expect(reply).toEqual({
      keyId: key.id,
      fingerprint: key.fingerprint,
      actor: { id: bob.id, login: 'bob', isAdmin: false, scopes: ['all'], hasTwoFactor: false, via: 'ssh' },
    });
    await usage.recorder.settle();
    const first = await lastUsed(key.id);
    expect(first).toBeInstanceOf(Date);
    keys.touch(key.id);
    await keys.resolve(blobOf(text));
    await usage.recorder.settle();
    expect(usage.recorder.writes).toBe(writes + 1);
    expect(await lastUsed(key.id)).toEqual(first);
    expect((await keys.get(bob, key.id)).last_used_at).not.toBeNull();

    await expect(keys.resolve(blobOf(ed25519()))).rejects.toMatchObject({ code: ErrorCode.UNAUTHENTICATED });
    await expect(keys.resolve('not base64 at all')).rejects.toMatchObject({ code: ErrorCode.UNAUTHENTICATED });
  });
});
