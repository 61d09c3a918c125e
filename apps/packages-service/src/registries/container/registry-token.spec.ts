import { describe, expect, it } from 'vitest';
import { REGISTRY_TOKEN_TTL_SECONDS, registryTokenKey, signRegistryToken, verifyRegistryToken } from './registry-token.js';

const key = registryTokenKey('secret-one');

describe('registry bearer tokens', () => {
  it('round-trips the actor and scopes until it expires', () => {
    const { token, claims } = signRegistryToken(key, { uid: 7, login: 'alice', scopes: ['read:package'] }, 1000);
    expect(verifyRegistryToken(key, token, 1001)).toEqual(claims);
    expect(claims).toMatchObject({ uid: 7, login: 'alice', scopes: ['read:package'], exp: 1000 + REGISTRY_TOKEN_TTL_SECONDS });
    expect(verifyRegistryToken(key, token, 1000 + REGISTRY_TOKEN_TTL_SECONDS)).toBeUndefined();
  });

  it('refuses another key, a tampered payload and garbage', () => {
    const { token } = signRegistryToken(key, { uid: 0, login: '' }, 1000);
    expect(verifyRegistryToken(registryTokenKey('secret-two'), token, 1001)).toBeUndefined();
    const [h, , s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ uid: 1, login: 'admin', iat: 1000, exp: 9e9 })).toString('base64url');
    expect(verifyRegistryToken(key, `${h}.${forged}.${s}`, 1001)).toBeUndefined();
    for (const bad of ['', 'a.b', 'a.b.c', `${token}x`, 'x'.repeat(5000)]) expect(verifyRegistryToken(key, bad, 1001)).toBeUndefined();
  });
});
