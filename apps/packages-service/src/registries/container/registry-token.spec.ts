import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  REGISTRY_TOKEN_TTL_SECONDS, registryTokenKey, signRegistryToken, subjectFor, verifyRegistryToken,
} from './registry-token.js';

const key = registryTokenKey('secret-one');

describe('registry bearer tokens', () => {
  it('round-trips the user and access token it refers to until it expires', () => {
    const { token, claims } = signRegistryToken(key, { uid: 7, login: 'alice', tid: 12 }, 1000);
    expect(verifyRegistryToken(key, token, 1001)).toEqual(claims);
    expect(claims).toMatchObject({ uid: 7, login: 'alice', tid: 12, exp: 1000 + REGISTRY_TOKEN_TTL_SECONDS });
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

  it('refers to the user and access token instead of copying rights: no admin flag, no scopes', () => {
    const viaToken = { id: 3, login: 'bob', isAdmin: true, scopes: ['read:package'], hasTwoFactor: false, via: 'token' as const, tokenId: 9 };
    expect(subjectFor(viaToken)).toEqual({ uid: 3, login: 'bob', tid: 9 });
    expect(subjectFor({ ...viaToken, via: 'password', scopes: ['all'], tokenId: undefined })).toEqual({ uid: 3, login: 'bob' });
    expect(subjectFor(null)).toEqual({ uid: 0, login: '' });
  });

  it('refuses tokens of the earlier format, which carried a copy of the admin flag and scopes', () => {
    const [h] = signRegistryToken(key, { uid: 1, login: 'x' }, 1000).token.split('.');
    for (const legacy of [{ uid: 1, login: 'admin', admin: true, iat: 1000, exp: 9e9 }, { uid: 1, login: 'a', scopes: ['all'], iat: 1000, exp: 9e9 }]) {
      const body = `${h}.${Buffer.from(JSON.stringify(legacy)).toString('base64url')}`;
      const signed = `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
      expect(verifyRegistryToken(key, signed, 1001)).toBeUndefined();
    }
  });
});
