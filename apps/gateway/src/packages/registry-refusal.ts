import { PACKAGES_HTTP_PREFIXES, containerRegistryChallenge } from '@cairn/contracts';

export interface RegistryRefusal {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function registryOf(path: string): 'container' | 'npm' | 'other' {
  if (path === PACKAGES_HTTP_PREFIXES.oci || path.startsWith(`${PACKAGES_HTTP_PREFIXES.oci}/`)) return 'container';
  return /^\/api\/packages\/[^/]+\/npm(\/|$)/.test(path) ? 'npm' : 'other';
}

/** A gateway refusal shaped as each registry answers: OCI's error list with its challenge, npm's `{ error }`, text. */
export function registryRefusal(path: string, status: number, message: string, rootUrl: string): RegistryRefusal {
  const challenge: Record<string, string> = {};
  switch (registryOf(path)) {
    case 'container':
      if (status === 401) {
        challenge['www-authenticate'] = containerRegistryChallenge(rootUrl);
      }
      return {
        status,
        headers: { 'content-type': 'application/json', 'docker-distribution-api-version': 'registry/2.0', ...challenge },
        body: JSON.stringify({ errors: [{ code: status === 401 ? 'UNAUTHORIZED' : 'UNAVAILABLE', message }] }),
      };
    case 'npm':
      if (status === 401) challenge['www-authenticate'] = 'Basic realm="Gitea Package API"';
      return { status, headers: { 'content-type': 'application/json', ...challenge }, body: JSON.stringify({ error: message }) };
    case 'other':
      if (status === 401) challenge['www-authenticate'] = 'Basic realm="Gitea Package API"';
      return { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...challenge }, body: `${message}\n` };
  }
}
