/**
 * The registry's own bearer tokens, handed out by `GET /v2/token` (Gitea's token flow): a JWT signed with HS256
 * under a key derived from `[security] SECRET_KEY`, carrying the actor it was issued to (id 0 for anonymous) and,
 * when the caller signed in with an access token, that token's scopes — so a `read:package` token cannot push
 * through a registry token. Short-lived: clients ask for a new one when it expires.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { ActorDto } from '@cairn/contracts';

export const REGISTRY_TOKEN_TTL_SECONDS = 60 * 60;

export interface RegistryTokenClaims {
  /** User id; 0 for anonymous. */
  uid: number;
  login: string;
  /** Site administrator when the token was issued (the token lives an hour at most). */
  admin?: boolean;
  /** The access token's scopes when the caller authenticated with one; absent for a password (all scopes). */
  scopes?: string[];
  /** Seconds since the epoch. */
  iat: number;
  exp: number;
}

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

/** A dedicated key, so a registry token can never be mistaken for anything else signed with the secret key. */
export function registryTokenKey(secretKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, 'cairn-registry-token', 'oci registry bearer token v1', 32));
}

export function signRegistryToken(
  key: Buffer,
  actor: { uid: number; login: string; admin?: boolean; scopes?: string[] },
  nowSeconds = Math.floor(Date.now() / 1000),
): { token: string; claims: RegistryTokenClaims } {
  const claims: RegistryTokenClaims = {
    uid: actor.uid,
    login: actor.login,
    ...(actor.admin ? { admin: true } : {}),
    ...(actor.scopes ? { scopes: actor.scopes } : {}),
    iat: nowSeconds,
    exp: nowSeconds + REGISTRY_TOKEN_TTL_SECONDS,
  };
  const body = `${HEADER}.${base64url(JSON.stringify(claims))}`;
  return { token: `${body}.${sign(key, body)}`, claims };
}

/** The claims of a valid, unexpired token; undefined for anything else (wrong key, tampered, expired, malformed). */
export function verifyRegistryToken(
  key: Buffer,
  token: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): RegistryTokenClaims | undefined {
  if (token.length > 4096) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return undefined;
  const expected = Buffer.from(sign(key, `${parts[0]}.${parts[1]}`));
  const given = Buffer.from(parts[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isClaims(claims) || claims.exp <= nowSeconds) return undefined;
  return claims;
}

/** The claims for a caller as the gateway authenticated it (null: anonymous). */
export function claimsFor(actor: ActorDto | null): { uid: number; login: string; admin?: boolean; scopes?: string[] } {
  if (!actor) return { uid: 0, login: '' };
  return { uid: actor.id, login: actor.login, admin: actor.isAdmin, ...(actor.via === 'token' ? { scopes: actor.scopes } : {}) };
}

/** The caller a registry token stands for (null: anonymous), shaped as the gateway's actors are. */
export function actorOf(claims: RegistryTokenClaims): ActorDto | null {
  if (claims.uid === 0) return null;
  return {
    id: claims.uid,
    login: claims.login,
    isAdmin: claims.admin === true,
    scopes: claims.scopes ?? ['all'],
    hasTwoFactor: false,
    via: claims.scopes ? 'token' : 'password',
  };
}

function isClaims(v: unknown): v is RegistryTokenClaims {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return (
    Number.isSafeInteger(c.uid) && (c.uid as number) >= 0 && typeof c.login === 'string' &&
    Number.isSafeInteger(c.iat) && Number.isSafeInteger(c.exp) && (c.admin === undefined || typeof c.admin === 'boolean') &&
    (c.scopes === undefined || (Array.isArray(c.scopes) && c.scopes.every((s) => typeof s === 'string')))
  );
}

function sign(key: Buffer, data: string): string {
  return createHmac('sha256', key).update(data).digest('base64url');
}

function base64url(s: string): string {
  return Buffer.from(s).toString('base64url');
}
