/**
 * OpenPGP keys and key ownership proofs end to end, with keys made by the real `gpg` and signatures by the real
 * `gpg --detach-sign` and `ssh-keygen -Y sign`: Gitea's `/user/gpg_keys` routes (shapes, the e-mail rule, duplicate
 * key ids, the verification token and `/user/gpg_key_verify`), Cairn's `/user/ssh_key_token` +
 * `/user/ssh_key_verify` (Gitea verifies SSH keys in its web UI only), permissions, scopes and hostile input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspace, type Workspace } from '../support/git.js';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { Gpg, sshKeyPair, sshSign, type GpgKey } from '../support/signing-tools.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { expectApiError, expectClientError, expectContract, scopeMessage } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
let ws: Workspace;
let gpg: Gpg;
let admin: Account;
let alice: Account;
let bob: Account;
/** alice's ed25519 key (cv25519 encryption subkey, ed25519 signing subkey), uid alice's e-mail. */
let aliceKey: GpgKey;
let aliceKeyRowId: number;

const emailOf = (a: Account) => `${a.username}@example.com`;
const tokenOf = async (a: Account) => {
  const res = await api.get('/user/gpg_key_token', { basic: a });
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(res.text).toMatch(/^[0-9a-f]{64}$/);
  return res.text;
};

beforeAll(async () => {
  suite = await sharedTestSuite();
  api = http(suite);
  ws = workspace('cairn-e2e-gpg-');
  gpg = new Gpg(ws.dir('gnupg'));
  admin = await suite.createAdmin();
  [alice, bob] = await Promise.all([createUser(suite, admin, uniqueName('alice')), createUser(suite, admin, uniqueName('bob'))]);
  aliceKey = await gpg.generate(`Alice <${emailOf(alice)}>`, 'ed25519', { signingSubkey: true });
});

afterAll(async () => {
  await suite?.stop();
  ws?.cleanup();
});

describe('GPG keys', () => {
  it('adds a key whose e-mail is the user\'s: Gitea\'s GPGKey with subkeys and capabilities (201)', async () => {
    const res = await api.post('/user/gpg_keys', { basic: alice, body: { armored_public_key: aliceKey.armoredPublic } });
    expectContract('POST', '/user/gpg_keys', res, 201);
    aliceKeyRowId = res.body.id;
    expect(res.body).toMatchObject({
      primary_key_id: '',
      key_id: aliceKey.keyId,
      emails: [{ email: emailOf(alice), verified: true }],
      can_sign: true,
      can_certify: true,
      can_encrypt_comms: false,
      can_encrypt_storage: false,
      verified: false,
      expires_at: '1970-01-01T00:00:00Z',
    });
    expect(res.body.public_key).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(res.body.subkeys).toHaveLength(2);
    expect(res.body.subkeys.map((s: { key_id: string }) => s.key_id)).toEqual(aliceKey.subkeyIds);
    expect(res.body.subkeys[0]).toMatchObject({ primary_key_id: aliceKey.keyId, can_sign: false, can_encrypt_comms: true, emails: [], subkeys: [] });
    expect(res.body.subkeys[1]).toMatchObject({ primary_key_id: aliceKey.keyId, can_sign: true, can_encrypt_comms: false });
  });

  it('lists and gets keys: own list, anyone\'s public list, one key for its owner only', async () => {
    const own = await api.get('/user/gpg_keys', { basic: alice });
    expectContract('GET', '/user/gpg_keys', own);
    expect(own.body.map((k: { key_id: string }) => k.key_id)).toEqual([aliceKey.keyId]);
    expect(own.headers.get('x-total-count')).toBe('1');
    const anonymous = await api.get(`/users/${alice.username}/gpg_keys`);
    expectContract('GET', '/users/{username}/gpg_keys', anonymous);
    expect(anonymous.body[0].key_id).toBe(aliceKey.keyId);
    expectApiError(await api.get('/users/no-such-user/gpg_keys'), 404);
    expectContract('GET', '/user/gpg_keys/{id}', await api.get(`/user/gpg_keys/${aliceKeyRowId}`, { basic: alice }));
    expectApiError(await api.get(`/user/gpg_keys/${aliceKeyRowId}`, { basic: bob }), 404);
    expectApiError(await api.get('/user/gpg_keys'), 401);
    expect((await api.get('/user/gpg_keys', { basic: bob })).body).toEqual([]);
  });

  it('refuses a key id already used, by anyone (422)', async () => {
    expectApiError(await api.post('/user/gpg_keys', { basic: alice, body: { armored_public_key: aliceKey.armoredPublic } }), 422, 'A key with the same id already exists');
    const token = await tokenOf(bob);
    // Even with a valid signature: the id is taken.
    const signature = await gpg.detachSign(aliceKey.keyId, token);
    expectApiError(
      await api.post('/user/gpg_keys', { basic: bob, body: { armored_public_key: aliceKey.armoredPublic, armored_signature: signature } }),
      422,
      'A key with the same id already exists',
    );
  });

  it('a key with none of the user\'s e-mails: 404 naming the token; added verified with a signature over it', async () => {
    const key = await gpg.generate(`Robot <${uniqueName('robot')}@elsewhere.test>`, 'rsa');
    const refused = await api.post('/user/gpg_keys', { basic: bob, body: { armored_public_key: key.armoredPublic } });
    const token = await tokenOf(bob);
    expectApiError(
      refused,
      404,
      `None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: ${token}`,
    );
    // Signed by another key: refused.
    const wrong = await gpg.detachSign(aliceKey.keyId, token);
    expectApiError(
      await api.post('/user/gpg_keys', { basic: bob, body: { armored_public_key: key.armoredPublic, armored_signature: wrong } }),
      422,
      /^The provided GPG key, signature and token do not match or token is out of date\. Provide a valid signature for the token: [0-9a-f]{64}$/,
    );
    const res = await api.post('/user/gpg_keys', {
      basic: bob,
      body: { armored_public_key: key.armoredPublic, armored_signature: await gpg.detachSign(key.keyId, token) },
    });
    expectContract('POST', '/user/gpg_keys', res, 201);
    expect(res.body).toMatchObject({ key_id: key.keyId, verified: true, emails: [], can_sign: true, can_encrypt_comms: true, subkeys: [] });
  });

  it('verifies a key with a signature by its signing subkey over the token (gpg_key_verify)', async () => {
    const token = await tokenOf(alice);
    // Signed by bob's key, or over another text: 422.
    const other = await gpg.generate(`Other <${uniqueName('o')}@example.net>`, 'ed25519');
    expectApiError(
      await api.post('/user/gpg_key_verify', { basic: alice, body: { key_id: aliceKey.keyId, armored_signature: await gpg.detachSign(other.keyId, token) } }),
      422,
      /^The provided GPG key, signature and token do not match/,
    );
    expectApiError(
      await api.post('/user/gpg_key_verify', { basic: alice, body: { key_id: aliceKey.keyId, armored_signature: await gpg.detachSign(aliceKey.keyId, 'not the token') } }),
      422,
    );
    expectApiError(
      await api.post('/user/gpg_key_verify', { basic: alice, body: { key_id: aliceKey.keyId, armored_signature: 'garbage' } }),
      422,
    );
    // Not alice's key / no such key: 404.
    expectApiError(await api.post('/user/gpg_key_verify', { basic: alice, body: { key_id: other.keyId, armored_signature: 'x' } }), 404);
    expectApiError(await api.post('/user/gpg_key_verify', { basic: bob, body: { key_id: aliceKey.keyId, armored_signature: 'x' } }), 404);

    const signature = await gpg.detachSign(`${aliceKey.subkeyIds[1]}!`, token);
    const res = await api.post('/user/gpg_key_verify', { basic: alice, body: { key_id: `00${aliceKey.keyId}`, armored_signature: signature } });
    expectContract('POST', '/user/gpg_key_verify', res);
    expect(res.body).toMatchObject({ key_id: aliceKey.keyId, verified: true });
    expect((await api.get(`/user/gpg_keys/${aliceKeyRowId}`, { basic: alice })).body.verified).toBe(true);
  });

  it('refuses hostile and malformed keys with 422, never 500', async () => {
    const bad = [
      'not a key',
      '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nAAAA\n-----END PGP PUBLIC KEY BLOCK-----\n',
      '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n!!!!\n-----END PGP PUBLIC KEY BLOCK-----\n',
      aliceKey.armoredPublic.slice(0, Math.floor(aliceKey.armoredPublic.length / 2)),
      `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${'A'.repeat(70_000)}\n-----END PGP PUBLIC KEY BLOCK-----\n`,
    ];
    for (const armored of bad) {
      expectClientError(await api.post('/user/gpg_keys', { basic: bob, body: { armored_public_key: armored } }), 422);
    }
    const secret = await gpg.exportSecret(aliceKey.fingerprint);
    expectApiError(await api.post('/user/gpg_keys', { basic: bob, body: { armored_public_key: secret } }), 422, /private key/);
    expectClientError(await api.post('/user/gpg_keys', { basic: bob, body: {} }), 422);
    expectClientError(await api.post('/user/gpg_keys', { basic: bob, body: { armored_public_key: 42 } }), 422);
    expectClientError(await api.post('/user/gpg_key_verify', { basic: bob, body: { key_id: 'zz', armored_signature: 'x' } }));
    expectApiError(await api.post('/user/gpg_keys', { body: { armored_public_key: aliceKey.armoredPublic } }), 401);
  });

  it('needs write:user to add and read:user to list', async () => {
    const read = await createToken(suite, bob, ['read:user']);
    expect((await api.get('/user/gpg_keys', { token: read })).status).toBe(200);
    expectApiError(
      await api.post('/user/gpg_keys', { token: read, body: { armored_public_key: aliceKey.armoredPublic } }),
      403,
      scopeMessage('write:user', ['read:user']),
    );
    const repoOnly = await createToken(suite, bob, ['read:repository']);
    expectApiError(await api.get('/user/gpg_keys', { token: repoOnly }), 403, scopeMessage('read:user', ['read:repository']));
  });

  it('deletes: the owner or a site admin; someone else 403; a missing key 204 (as Gitea)', async () => {
    const key = await gpg.generate(`Alice Two <${emailOf(alice)}>`, 'rsa');
    const added = await api.post('/user/gpg_keys', { basic: alice, body: { armored_public_key: key.armoredPublic } });
    expect(added.status, added.text).toBe(201);
    expectApiError(await api.delete(`/user/gpg_keys/${added.body.id}`, { basic: bob }), 403, 'You do not have access to this key');
    expectApiError(await api.delete(`/user/gpg_keys/${added.body.id}`), 401);
    expect((await api.delete(`/user/gpg_keys/${added.body.id}`, { basic: alice })).status).toBe(204);
    expect((await api.delete(`/user/gpg_keys/${added.body.id}`, { basic: alice })).status).toBe(204);
    expectApiError(await api.get(`/user/gpg_keys/${added.body.id}`, { basic: alice }), 404);
    // A subkey's row is not a key of its own.
    const subRow = (await api.get(`/user/gpg_keys/${aliceKeyRowId}`, { basic: alice })).body.subkeys[0].id;
    expectApiError(await api.get(`/user/gpg_keys/${subRow}`, { basic: alice }), 404);

    const again = await api.post('/user/gpg_keys', { basic: alice, body: { armored_public_key: key.armoredPublic } });
    expect(again.status, again.text).toBe(201);
    expect((await api.delete(`/user/gpg_keys/${again.body.id}`, { basic: admin })).status).toBe(204);
    expect((await api.get('/user/gpg_keys', { basic: alice })).body.map((k: { key_id: string }) => k.key_id)).toEqual([aliceKey.keyId]);
  });
});

describe('SSH key verification', () => {
  it.each(['ed25519', 'ecdsa', 'rsa'] as const)('verifies a %s key with ssh-keygen -Y sign over the token', async (type) => {
    const pair = await sshKeyPair(ws.dir('ssh'), type);
    const added = await api.post('/user/keys', { basic: alice, body: { title: uniqueName(type), key: pair.publicKey } });
    expect(added.status, added.text).toBe(201);
    expect(added.body.verified).toBe(false);
    const token = await api.get('/user/ssh_key_token', { basic: alice });
    expect(token.status).toBe(200);
    expect(token.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(token.text).toBe(await tokenOf(alice));
    const res = await api.post('/user/ssh_key_verify', {
      basic: alice,
      body: { key_id: added.body.id, signature: await sshSign(pair.privateKeyPath, token.text) },
    });
    expectContract('POST', '/user/ssh_key_verify', res);
    expect(res.body).toMatchObject({ id: added.body.id, verified: true });
    const listed = await api.get(`/user/keys/${added.body.id}`, { basic: alice });
    expectContract('GET', '/user/keys/{id}', listed);
    expect(listed.body.verified).toBe(true);
  });

  it('refuses another key\'s signature, another namespace, another text, garbage, and other users\' keys', async () => {
    const pair = await sshKeyPair(ws.dir('ssh'));
    const stranger = await sshKeyPair(ws.dir('ssh'));
    const added = await api.post('/user/keys', { basic: alice, body: { title: uniqueName('k'), key: pair.publicKey } });
    const token = await tokenOf(alice);
    const verify = (signature: string, who: Account = alice, keyId: number = added.body.id) =>
      api.post('/user/ssh_key_verify', { basic: who, body: { key_id: keyId, signature } });
    expectApiError(await verify(await sshSign(stranger.privateKeyPath, token)), 422, /the signature was made by a different key/);
    expectApiError(await verify(await sshSign(pair.privateKeyPath, token, 'file')), 422, /wrong signature namespace "file"/);
    expectApiError(await verify(await sshSign(pair.privateKeyPath, 'something else')), 422, /^The provided SSH key, signature and token do not match/);
    expectApiError(await verify('-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----'), 422, /truncated SSH signature/);
    expectApiError(await verify('garbage'), 422, /not an armored SSH signature/);
    expectApiError(await verify(await sshSign(pair.privateKeyPath, token), bob), 404);
    expectApiError(await verify('x', alice, 2_147_483_647), 404);
    expectClientError(await verify('x', alice, -1 as number), 422);
    expectClientError(await api.post('/user/ssh_key_verify', { basic: alice, body: { key_id: added.body.id, signature: 'x'.repeat(20_000) } }), 422);
    expectApiError(await api.post('/user/ssh_key_verify', { body: { key_id: added.body.id, signature: 'x' } }), 401);
    expectApiError(await api.get('/user/ssh_key_token'), 401);
    expect((await api.get(`/user/keys/${added.body.id}`, { basic: alice })).body.verified).toBe(false);
  });
});
