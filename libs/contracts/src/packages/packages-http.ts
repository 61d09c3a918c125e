import type { ActorDto } from '../common/actor.js';

/** The gateway streams these unchanged to packages-service (`[cairn] PACKAGES_INTERNAL_URL`), under the same paths. */
export const PACKAGES_HTTP_PREFIXES = {
  registries: '/api/packages',
  oci: '/v2',
} as const;

export const PACKAGE_TYPES = ['generic', 'npm', 'container'] as const;
export type PackageType = (typeof PACKAGE_TYPES)[number];

/** base64url JSON of the {@link ActorDto} the gateway resolved (absent: anonymous); only trusted with the internal token. */
export const PACKAGES_ACTOR_HEADER = 'x-cairn-actor';

export function encodeActorHeader(actor: ActorDto): string {
  // The token id lets the container registry's bearer tokens refer to the access token they were made from.
  const { id, login, isAdmin, scopes, hasTwoFactor, via, tokenId } = actor;
  return Buffer.from(JSON.stringify({ id, login, isAdmin, scopes, hasTwoFactor, via, tokenId })).toString('base64url');
}

export function decodeActorHeader(value: string | string[] | undefined): ActorDto | null {
  if (value === undefined) return null;
  if (Array.isArray(value)) throw new Error('more than one actor header');
  const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as ActorDto;
  if (!Number.isInteger(parsed?.id) || typeof parsed.login !== 'string' || !Array.isArray(parsed.scopes)) {
    throw new Error('malformed actor header');
  }
  if (parsed.tokenId !== undefined && !Number.isSafeInteger(parsed.tokenId)) throw new Error('malformed actor header');
  return { ...parsed, isAdmin: parsed.isAdmin === true, hasTwoFactor: parsed.hasTwoFactor === true };
}

export const PACKAGES_REQUEST_HEADERS = [
  'content-type', 'content-length', 'content-range', 'content-encoding', 'accept', 'accept-encoding', 'user-agent',
  'range', 'if-none-match', 'if-match', 'if-modified-since', 'npm-command', 'npm-session', 'npm-auth-type',
  'docker-content-digest', 'docker-distribution-api-version',
] as const;

export const CONTAINER_REGISTRY_SERVICE = 'container_registry';

/** `/v2` lives at the host's root whatever ROOT_URL's path (as in Gitea), so the realm is ROOT_URL's origin + `/v2/token`. */
export function containerRegistryChallenge(rootUrl: string): string {
  const origin = new URL(rootUrl).origin;
  return `Bearer realm="${origin}/v2/token",service="${CONTAINER_REGISTRY_SERVICE}",scope="*"`;
}
