/**
 * The `WWW-Authenticate` challenge of the container registry (Gitea's token flow): clients answer a 401 by asking
 * `/v2/token` for a bearer token. The registry lives at the host's root whatever ROOT_URL's path (Gitea does the
 * same: `/v2` cannot be below a sub-path), so the realm is ROOT_URL's origin + `/v2/token`.
 */
export const REGISTRY_SERVICE = 'container_registry';

export function registryChallenge(rootUrl: string): string {
  const origin = new URL(rootUrl).origin;
  return `Bearer realm="${origin}/v2/token",service="${REGISTRY_SERVICE}",scope="*"`;
}

/** Sent with every `/v2` answer (the distribution spec's legacy Docker header; clients check it on `/v2/`). */
export const API_VERSION_HEADER = { 'docker-distribution-api-version': 'registry/2.0' } as const;
