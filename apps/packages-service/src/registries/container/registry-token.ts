// Registry bearer tokens: HS256 JWTs that reference the user and access token, re-read on every request.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { ActorDto } from '@cairn/contracts';

export const REGISTRY_TOKEN_TTL_SECONDS = 60 * 60;

/** Who a registry token refers to: the user (0: anonymous) and the access token they signed in with, if any. */
export interface RegistryTokenSubject {
  uid: number;
  login: string;
  /** The access token's id when the caller authenticated with one; absent for a password or a web session. */
  tid?: number;
}

export interface RegistryTokenClaims extends RegistryTokenSubject {
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
  subject: RegistryTokenSubject,
  nowSeconds = Math.floor(Date.now() / 1000),
): { token: string; claims: RegistryTokenClaims } {
  const claims: RegistryTokenClaims = {
    uid: subject.uid,
    login: subject.login,
    ...(subject.tid !== undefined ? { tid: subject.tid } : {}),
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

export function subjectFor(actor: ActorDto | null): RegistryTokenSubject {
  if (!actor) return { uid: 0, login: '' };
  return { uid: actor.id, login: actor.login, ...(actor.via === 'token' && actor.tokenId !== undefined ? { tid: actor.tokenId } : {}) };
}

function isClaims(v: unknown): v is RegistryTokenClaims {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return (
    Number.isSafeInteger(c.uid) && (c.uid as number) >= 0 && typeof c.login === 'string' &&
    Number.isSafeInteger(c.iat) && Number.isSafeInteger(c.exp) &&
    (c.tid === undefined || (Number.isSafeInteger(c.tid) && (c.tid as number) > 0)) &&
    // Tokens of the earlier format carried a copy of the scopes and admin flag: no longer honoured.
    c.scopes === undefined && c.admin === undefined
  );
}

function sign(key: Buffer, data: string): string {
  return createHmac('sha256', key).update(data).digest('base64url');
}

function base64url(s: string): string {
  return Buffer.from(s).toString('base64url');
}
