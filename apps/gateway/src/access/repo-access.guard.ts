import {
  Inject, Injectable, SetMetadata, createParamDecorator, type CanActivate, type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  DomainError, ErrorCode, RepoSubjects, accessAtLeast, twoFactorDeniesRepoAccess, twoFactorRequiredMessage,
  type AccessLevel, type ActorDto, type RepoAccessReply,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import type { FastifyRequest } from 'fastify';
import { getAuthState } from '../auth/request-context.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../config/gateway-settings.js';

const REPO_ACCESS = 'cairn:repoAccess';
const RESOLVED = Symbol('cairnRepo');

/**
 * Marks a `/repos/{owner}/{repo}/…` route and the access it needs. The guard resolves the repository and the
 * caller's access once (`repo.access.resolve`); a repository the caller cannot see answers 404, never 403.
 */
export const RepoAccess = (need: AccessLevel) => SetMetadata(REPO_ACCESS, need);

const NOT_ARCHIVED = 'cairn:repoNotArchived';

/**
 * Gitea's `mustNotBeArchived`: a write route refused with 423 on an archived repository (after the access check, so
 * a caller who may not write still learns nothing more).
 */
export const MustNotBeArchived = () => SetMetadata(NOT_ARCHIVED, true);

/** What a repository route receives: exactly the fields of every repository-scoped message. */
export interface RepoContext {
  actor: ActorDto | null;
  repo: RepoAccessReply['repo'];
  access: AccessLevel;
}

/** The resolved repository context (use on routes marked with {@link RepoAccess}). */
export const CurrentRepo = createParamDecorator((_d: unknown, ctx: ExecutionContext): RepoContext => {
  const req = ctx.switchToHttp().getRequest<FastifyRequest>();
  const resolved = (req as unknown as Record<symbol, RepoContext | undefined>)[RESOLVED];
  if (!resolved) throw new Error('CurrentRepo used on a route without @RepoAccess');
  return resolved;
});

/** Gitea's messages for each missing level. */
const DENIED: Record<AccessLevel, string> = {
  none: 'not found',
  read: 'user should have a permission to read units',
  write: 'user should have a permission to write to a repo',
  admin: 'user should be an owner or a collaborator with admin write of a repository',
  owner: 'user should be the owner of the repo',
};

@Injectable()
export class RepoAccessGuard implements CanActivate {
  constructor(
    private readonly rpc: RpcClient,
    private readonly reflector: Reflector,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const need = this.reflector.getAllAndOverride<AccessLevel>(REPO_ACCESS, [context.getHandler(), context.getClass()]);
    if (!need) return true;
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const params = req.params as { owner?: string; repo?: string };
    if (!params.owner || !params.repo) throw new Error('@RepoAccess route without :owner/:repo');
    const { actor } = getAuthState(req);
    const context_ = await resolveRepoAccess(this.rpc, this.settings, actor, params.owner, params.repo);
    if (!accessAtLeast(context_.access, need)) {
      if (!actor && need !== 'read') throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
      throw DomainError.forbidden(DENIED[need]);
    }
    const refuseArchived = this.reflector.getAllAndOverride<boolean>(NOT_ARCHIVED, [context.getHandler(), context.getClass()]);
    if (refuseArchived && context_.repo.archived) throw new DomainError(ErrorCode.LOCKED, 'repo is archived');
    (req as unknown as Record<symbol, RepoContext>)[RESOLVED] = context_;
    return true;
  }
}

/**
 * Resolves a repository for an actor, applying the two-factor repository policy (`twoFactorDeniesRepoAccess`: a 404,
 * as Gitea, whose message says how to enrol — decided before the lookup, so it is the same for every repository and
 * tells nothing about which exist). Shared by the API guard, the web pages and git over HTTP.
 */
export async function resolveRepoAccess(
  rpc: RpcClient,
  settings: GatewaySettings,
  actor: ActorDto | null,
  owner: string,
  repo: string,
): Promise<RepoContext> {
  if (twoFactorDeniesRepoAccess(settings.twoFactorAuth, actor)) throw DomainError.notFound(twoFactorRequiredMessage());
  const reply = await rpc.send(RepoSubjects.accessResolve, { actor, owner, repo });
  if (reply.access === 'none') throw DomainError.notFound('not found');
  return { actor, repo: reply.repo, access: reply.access };
}
