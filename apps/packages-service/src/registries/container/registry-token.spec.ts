import { describe, expect, it } from 'vitest';
import {
  REGISTRY_TOKEN_TTL_SECONDS, actorOf, claimsFor, registryTokenKey, signRegistryToken, verifyRegistryToken,
} from './registry-token.js';

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

  it('carries the actor: a token login keeps its scopes, a password login all, anonymous none', () => {
    const viaToken = { id: 3, login: 'bob', isAdmin: false, scopes: ['read:package'], hasTwoFactor: false, via: 'token' as const };
    const { token } = signRegistryToken(key, claimsFor(viaToken));
    expect(actorOf(verifyRegistryToken(key, token)!)).toMatchObject({ id: 3, login: 'bob', scopes: ['read:package'], via: 'token' });
    const admin = { ...viaToken, isAdmin: true, scopes: ['all'], via: 'password' as const };
    const second = signRegistryToken(key, claimsFor(admin)).token;
    expect(actorOf(verifyRegistryToken(key, second)!)).toMatchObject({ id: 3, isAdmin: true, scopes: ['all'], via: 'password' });
    expect(actorOf(verifyRegistryToken(key, signRegistryToken(key, claimsFor(null)).token)!)).toBeNull();
  });
});
