/** repo-service's internal HTTP endpoint: only the gateway calls it, with `[server] INTERNAL_TOKEN`. */

export const INTERNAL_HEADERS = {
  token: 'x-cairn-internal-token',
  repoId: 'x-cairn-repo-id',
  actorId: 'x-cairn-actor-id',
  actorLogin: 'x-cairn-actor-login',
  /** The actor's level on the repository (a release attachment's upload, judged against `REPO_ACCESS_NEEDS`). */
  access: 'x-cairn-access',
} as const;

export const INTERNAL_GIT_PREFIX = '/internal/git/';

export const INTERNAL_GIT_ENDPOINTS = ['info/refs', 'git-upload-pack', 'git-receive-pack'] as const;
export type InternalGitEndpoint = (typeof INTERNAL_GIT_ENDPOINTS)[number];

export function internalGitPath(owner: string, repo: string, endpoint: InternalGitEndpoint): string {
  return `${INTERNAL_GIT_PREFIX}${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/${endpoint}`;
}

/** Blobs too large for a bus message: `?owner=&repo=&ref=&path=` (a file at a commit) or `?owner=&repo=&blob=<id>`. */
export const INTERNAL_RAW_PATH = '/internal/raw';

/** Gitea's `/{owner}/{repo}/archive/{ref}.zip|.tar.gz`, streamed: `?owner=&repo=&commit=<full id>&format=zip|tar.gz`. */
export const INTERNAL_ARCHIVE_PATH = '/internal/archive';

/** Release attachment bytes never go over NATS: `POST ?repo=&release=&name=` stores, `GET ?repo=&uuid=` streams. */
export const INTERNAL_ATTACHMENTS_PATH = '/internal/attachments';

/** Gitea's runner protocol (Connect RPC), streamed unchanged to runners-service (`[cairn] RUNNERS_INTERNAL_URL`). */
export const RUNNER_PROTOCOL_PREFIX = '/api/actions';

export const RUNNER_PROTOCOL_REQUEST_HEADERS = [
  'content-type', 'content-encoding', 'content-length', 'accept', 'accept-encoding', 'user-agent',
  'connect-protocol-version', 'connect-timeout-ms', 'connect-content-encoding', 'connect-accept-encoding',
  'x-runner-uuid', 'x-runner-token', 'x-runner-version',
] as const;

export const RUNNER_PROTOCOL_MAX_BODY_BYTES = 16 * 1024 * 1024;
