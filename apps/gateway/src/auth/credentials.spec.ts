import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { CREDENTIAL_LIMITS, readCredentials } from './credentials.js';

const TOKEN = `cairn_${'a'.repeat(46)}`;
const req = (headers: Record<string, string> = {}, query: Record<string, string> = {}) =>
  ({ headers, query }) as unknown as FastifyRequest;
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

describe('readCredentials', () => {
  it('reads every form Gitea accepts', () => {
    expect(readCredentials(req({ authorization: `token ${TOKEN}` }))).toEqual({ method: 'token', request: { kind: 'token', secret: TOKEN } });
    expect(readCredentials(req({ authorization: `Bearer ${TOKEN}` }))).toMatchObject({ method: 'token' });
    expect(readCredentials(req({ authorization: basic('alice', TOKEN) }))).toEqual({
      method: 'basic-token',
      request: { kind: 'token', secret: TOKEN, username: 'alice' },
    });
    expect(readCredentials(req({ authorization: basic(TOKEN, '') }))).toMatchObject({ method: 'basic-token', request: { secret: TOKEN } });
    expect(readCredentials(req({ authorization: basic('alice', 'pw'), 'x-gitea-otp': '123456' }))).toEqual({
      method: 'basic-password',
      request: { kind: 'password', username: 'alice', secret: 'pw', otp: '123456' },
    });
    expect(readCredentials(req({}, { access_token: TOKEN }))).toMatchObject({ method: 'token', request: { secret: TOKEN } });
    expect(readCredentials(req({ authorization: `token ${TOKEN}`, sudo: 'bob' }))).toMatchObject({ request: { sudo: 'bob' } });
    expect(readCredentials(req())).toEqual({ method: 'none', request: null });
  });

  it('passes the client source address on, for the sign-in throttle', () => {
    const withIp = { headers: { authorization: basic('alice', 'pw') }, query: {}, ip: '203.0.113.7' } as unknown as FastifyRequest;
    expect(readCredentials(withIp)).toMatchObject({ method: 'basic-password', request: { clientAddress: '203.0.113.7' } });
  });

  it('calls malformed what no client of ours sends', () => {
    for (const authorization of ['token', 'Basic bm9jb2xvbg==', 'Digest x', 'bearer   ']) {
      expect(readCredentials(req({ authorization }))).toBe('malformed');
    }
  });

  it('refuses over-long values and NUL characters before they reach identity-service', () => {
    expect(readCredentials(req({ authorization: `token ${'x'.repeat(CREDENTIAL_LIMITS.secret + 1)}` }))).toBe('malformed');
    expect(readCredentials(req({ authorization: basic('u'.repeat(CREDENTIAL_LIMITS.username + 1), 'pw') }))).toBe('malformed');
    expect(readCredentials(req({ authorization: basic('alice', 'pw'), 'x-gitea-otp': '1'.repeat(17) }))).toBe('malformed');
    expect(readCredentials(req({ authorization: `token ${TOKEN}`, sudo: 's'.repeat(256) }))).toBe('malformed');
    expect(readCredentials(req({ authorization: basic('al\0ice', 'pw') }))).toBe('malformed');
    expect(readCredentials(req({}, { token: 'a\0b' }))).toBe('malformed');
    expect(readCredentials(req({ authorization: `token ${'x'.repeat(CREDENTIAL_LIMITS.secret)}` }))).toMatchObject({ method: 'token' });
  });
});
