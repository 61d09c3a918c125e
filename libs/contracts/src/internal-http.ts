/**
 * repo-service's internal HTTP endpoint: only the gateway calls it, with the shared internal token
 * (`[server] INTERNAL_TOKEN`). Both sides take its paths and headers from here.
 */

/** Headers the gateway sets on internal requests (HTTP header names, lower case). */
export const INTERNAL_HEADERS = {
  /** The shared internal token; every internal request carries it. */
  token: 'x-cairn-internal-token',
  /** The resolved repository's id (git requests; required for a push). */
  repoId: 'x-cairn-repo-id',
  /** The authenticated actor's id, when there is one (git requests; the pusher of a push). */
  actorId: 'x-cairn-actor-id',
  /** The authenticated actor's login, when there is one (git requests). */
  actorLogin: 'x-cairn-actor-login',
  /** The actor's level on the repository (a release attachment's upload, judged against `REPO_ACCESS_NEEDS`). */
  access: 'x-cairn-access',
} as const;

/** The internal git smart-HTTP prefix: `/internal/git/<owner>/<repo>/<endpoint>`. */
export const INTERNAL_GIT_PREFIX = '/internal/git/';

/** The git smart-HTTP endpoints below a repository's internal path. */
export const INTERNAL_GIT_ENDPOINTS = ['info/refs', 'git-upload-pack', 'git-receive-pack'] as const;
export type InternalGitEndpoint = (typeof INTERNAL_GIT_ENDPOINTS)[number];

/** The internal path of a repository's git endpoint (owner and name encoded as one path segment each). */
export function internalGitPath(owner: string, repo: string, endpoint: InternalGitEndpoint): string {
  return `${INTERNAL_GIT_PREFIX}${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/${endpoint}`;
}

/**
 * The internal route that streams a blob too large for a bus message: `GET …?owner=&repo=&ref=&path=` (a file at a
 * commit) or `GET …?owner=&repo=&blob=<id>` (a blob by id).
 */
export const INTERNAL_RAW_PATH = '/internal/raw';

/**
 * A repository archive (Gitea's `/{owner}/{repo}/archive/{ref}.zip|.tar.gz`), streamed:
 * `GET …?owner=&repo=&commit=<full id>&format=zip|tar.gz` (every path under `<repo>/`).
 */
export const INTERNAL_ARCHIVE_PATH = '/internal/archive';

/**
 * Release attachment bytes (never over NATS): `POST …?repo=<id>&release=<id>&name=<name>` stores the request body as
 * a new attachment (the actor in {@link INTERNAL_HEADERS}.actorId) and answers 201 with its `AttachmentDto`;
 * `GET …?repo=<id>&uuid=<uuid>` streams a stored one.
 */
export const INTERNAL_ATTACHMENTS_PATH = '/internal/attachments';

/**
 * Gitea's runner protocol (Connect RPC, `ping.v1.PingService`, `runner.v1.RunnerService`) below this public path. The
 * gateway streams `/api/actions/*` unchanged to runners-service's internal endpoint (`[cairn] RUNNERS_INTERNAL_URL`),
 * which serves it under the same prefix; the runner's own credentials travel in its headers.
 */
export const RUNNER_PROTOCOL_PREFIX = '/api/actions';

/** Runner-protocol request headers the gateway forwards (Connect's, and the runner's credentials); nothing else. */
export const RUNNER_PROTOCOL_REQUEST_HEADERS = [
  'content-type', 'content-encoding', 'content-length', 'accept', 'accept-encoding', 'user-agent',
  'connect-protocol-version', 'connect-timeout-ms', 'connect-content-encoding', 'connect-accept-encoding',
  'x-runner-uuid', 'x-runner-token', 'x-runner-version',
] as const;

/** The largest runner-protocol request body (a batch of log rows is the big one): the gateway and the handlers' bound. */
export const RUNNER_PROTOCOL_MAX_BODY_BYTES = 16 * 1024 * 1024;
