import {
  DomainError, ErrorCode, accessAtLeast, archivedPushRefusal, twoFactorDeniesRepoAccess, twoFactorRequiredMessage, type ActorDto,
} from '@cairn/contracts';
import type { RpcClient } from '@cairn/platform';
import type { FastifyRequest } from 'fastify';
import { resolveRepoAccess, type RepoContext } from '../access/repo-access.guard.js';
import { readCredentials } from '../auth/credentials.js';
import { resolveCredentials } from '../auth/resolve-credentials.js';
import { missingScopesMessage } from '../auth/scopes.js';
import type { GatewaySettings } from '../config/gateway-settings.js';

export type GitHttpService = 'upload-pack' | 'receive-pack';

/** A git HTTP request refused before reaching repo-service: status, plain-text message, and whether to ask for auth. */
export class GitHttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** 401: answer with `WWW-Authenticate: Basic` so git prompts for (or sends) credentials. */
    readonly askForCredentials = status === 401,
  ) {
    super(message);
  }
}

const ASK = (message = 'Unauthorized') => new GitHttpRefusal(401, message);

async function authenticate(rpc: RpcClient, settings: GatewaySettings, req: FastifyRequest): Promise<ActorDto | null> {
  const presented = readCredentials(req);
  if (presented === 'malformed') throw ASK('malformed Authorization header');
  if (!presented.request) return null;
  try {
    const reply = await resolveCredentials(rpc, settings, presented.request);
    return reply.actor;
  } catch (err) {
    if (
      err instanceof DomainError &&
      [ErrorCode.UNAUTHENTICATED, ErrorCode.NOT_FOUND, ErrorCode.PERMISSION_DENIED, ErrorCode.INVALID_ARGUMENT].includes(
        err.code,
      )
    ) {
      // Wrong password, unknown or revoked token, prohibited login: git should ask again.
      throw ASK(err.code === ErrorCode.PERMISSION_DENIED ? err.message : 'Unauthorized');
    }
    throw err;
  }
}

/** The API's policy for git: anonymous → 401 with a Basic challenge; 404 unseen, 403 a push with read access. */
export async function authorizeGitHttp(
  rpc: RpcClient,
  settings: GatewaySettings,
  req: FastifyRequest,
  owner: string,
  repo: string,
  service: GitHttpService,
): Promise<RepoContext> {
  const need = service === 'upload-pack' ? 'read' : 'write';
  const actor = await authenticate(rpc, settings, req);
  const missingScope = actor && missingScopesMessage(actor, [`${need}:repository`]);
  if (missingScope) throw new GitHttpRefusal(403, missingScope);
  if (!actor && (need === 'write' || settings.requireSigninView === 'strict')) throw ASK();
  // Said in plain text, which git prints as `remote: …` before giving up.
  if (twoFactorDeniesRepoAccess(settings.twoFactorAuth, actor)) throw new GitHttpRefusal(404, twoFactorRequiredMessage());
  let ctx: RepoContext;
  try {
    // Fetching and pushing are the code unit's (a team may read issues yet not code, or write code only).
    ctx = await resolveRepoAccess(rpc, settings, actor, owner, repo, 'code');
  } catch (err) {
    if (err instanceof DomainError && (err.code === ErrorCode.NOT_FOUND || err.code === ErrorCode.INVALID_ARGUMENT)) {
      // A private repository is indistinguishable from a missing one; anonymous callers may still sign in.
      throw actor ? new GitHttpRefusal(404, 'Repository not found') : ASK();
    }
    throw err;
  }
  if (!accessAtLeast(ctx.access, need)) {
    if (!actor) throw ASK();
    throw new GitHttpRefusal(403, `User permission denied: ${actor.login} may not push to ${ctx.repo.ownerName}/${ctx.repo.name}`);
  }
  const archived = need === 'write' ? archivedPushRefusal(ctx.repo) : null;
  if (archived) throw new GitHttpRefusal(403, archived);
  return ctx;
}
