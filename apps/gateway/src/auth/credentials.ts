import type { ResolveCredentialsRequest } from '@cairn/contracts';
import type { FastifyRequest } from 'fastify';
import type { AuthMethod } from './request-context.js';

/** Tokens are recognisable: Cairn's own prefix, or a legacy 40-hex Gitea-style secret. */
export function looksLikeToken(secret: string): boolean {
  return secret.startsWith('cairn_') || /^[0-9a-f]{40}$/.test(secret);
}

/** identity-service refuses longer values with INVALID_ARGUMENT (a 400): longer is no credential of ours (401). */
export const CREDENTIAL_LIMITS = { secret: 1024, username: 255, otp: 16, sudo: 255 } as const;

export interface PresentedCredentials {
  method: AuthMethod;
  request: ResolveCredentialsRequest | null;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Gitea's order: `Authorization: token|bearer`, Basic, then the deprecated `?token=` / `?access_token=`. */
export function readCredentials(req: FastifyRequest): PresentedCredentials | 'malformed' {
  const presented = presentedCredentials(req);
  if (presented === 'malformed' || !presented.request) return presented;
  const { secret, username, otp, sudo } = presented.request;
  const L = CREDENTIAL_LIMITS;
  if (secret.length > L.secret || (username?.length ?? 0) > L.username) return 'malformed';
  if ((otp?.length ?? 0) > L.otp || (sudo?.length ?? 0) > L.sudo) return 'malformed';
  // A NUL can be no part of a name or secret of ours (PostgreSQL text cannot even hold one).
  if ([secret, username, otp, sudo].some((v) => v?.includes('\0'))) return 'malformed';
  // identity-service throttles failed sign-ins per account and per source address: tell it the address.
  return req.ip ? { ...presented, request: { ...presented.request, clientAddress: req.ip } } : presented;
}

function presentedCredentials(req: FastifyRequest): PresentedCredentials | 'malformed' {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const sudoValue = header(req, 'sudo') ?? (typeof query.sudo === 'string' ? query.sudo : undefined);
  const sudo = sudoValue ? { sudo: sudoValue } : {};
  const auth = header(req, 'authorization')?.trim();
  if (auth) {
    const space = auth.indexOf(' ');
    const scheme = (space < 0 ? auth : auth.slice(0, space)).toLowerCase();
    const value = space < 0 ? '' : auth.slice(space + 1).trim();
    if (scheme === 'token' || scheme === 'bearer') {
      if (!value) return 'malformed';
      return { method: 'token', request: { kind: 'token', secret: value, ...sudo } };
    }
    if (scheme === 'basic') {
      let decoded: string;
      try {
        decoded = Buffer.from(value, 'base64').toString('utf8');
      } catch {
        return 'malformed';
      }
      const colon = decoded.indexOf(':');
      if (colon < 0) return 'malformed';
      const username = decoded.slice(0, colon);
      const password = decoded.slice(colon + 1);
      // Git clients send a token as the password, and some send it as the user name with an empty password.
      if (looksLikeToken(password)) {
        return { method: 'basic-token', request: { kind: 'token', secret: password, username, ...sudo } };
      }
      if (!password && looksLikeToken(username)) {
        return { method: 'basic-token', request: { kind: 'token', secret: username, ...sudo } };
      }
      const otp = header(req, 'x-gitea-otp');
      return {
        method: 'basic-password',
        request: { kind: 'password', username, secret: password, ...(otp ? { otp } : {}), ...sudo },
      };
    }
    return 'malformed';
  }
  const queryToken = query.token ?? query.access_token;
  if (typeof queryToken === 'string' && queryToken) {
    return { method: 'token', request: { kind: 'token', secret: queryToken, ...sudo } };
  }
  return { method: 'none', request: null };
}
