import {
  Inject, Injectable, SetMetadata, createParamDecorator, type CanActivate, type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  DomainError, ErrorCode, REPO_ACCESS_NEEDS, RepoSubjects, assertSubjectAccess, twoFactorDeniesRepoAccess,
  twoFactorRequiredMessage, unitAccessLevel,
  type AccessLevel, type ActorDto, type RepoAccessNeed, type RepoAccessReply, type RepoAccessSubject, type RepoUnit,
  type UnitAccess,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import type { FastifyRequest } from 'fastify';
import { getAuthState } from '../auth/request-context.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../config/gateway-settings.js';

const REPO_ACCESS = 'cairn:repoAccess';
const RESOLVED = Symbol('cairnRepo');

/** What {@link RepoAccess} records on a route: the operation, whose entry in `REPO_ACCESS_NEEDS` is the need. */
export interface DeclaredRepoAccess {
  operation: RepoAccessSubject;
}

/**
 * Marks a repository route and the operation it performs: the need is that operation's entry in `REPO_ACCESS_NEEDS`
 * (which repo-service, hooks-service or runners-service enforces too), never a level of the route's own. The guard
 * resolves the repository once; one the caller cannot see answers 404, never 403. The route receives the unit's
 * level as `access`.
 */
export function RepoAccess(operation: RepoAccessSubject): MethodDecorator & ClassDecorator {
  const declared: DeclaredRepoAccess = { operation };
  return SetMetadata(REPO_ACCESS, declared);
}

/** What a route or controller declares with {@link RepoAccess} (for tests comparing routes with the table). */
export function declaredRepoAccess(reflector: Reflector, target: object): DeclaredRepoAccess | undefined {
  return reflector.get<DeclaredRepoAccess | undefined>(REPO_ACCESS, target as () => unknown);
}

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
  /** On a route of several units whose levels differ: each one's (`access` is the strongest). */
  units?: UnitAccess;
}

/** The resolved repository context (use on routes marked with {@link RepoAccess}). */
export const CurrentRepo = createParamDecorator((_d: unknown, ctx: ExecutionContext): RepoContext => {
  const req = ctx.switchToHttp().getRequest<FastifyRequest>();
  const resolved = (req as unknown as Record<symbol, RepoContext | undefined>)[RESOLVED];
  if (!resolved) throw new Error('CurrentRepo used on a route without @RepoAccess');
  return resolved;
});

@Injectable()
export class RepoAccessGuard implements CanActivate {
  constructor(
    private readonly rpc: RpcClient,
    private readonly reflector: Reflector,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const marked = this.reflector.getAllAndOverride<DeclaredRepoAccess>(REPO_ACCESS, [context.getHandler(), context.getClass()]);
    if (!marked) return true;
    const { units }: RepoAccessNeed = REPO_ACCESS_NEEDS[marked.operation];
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const params = req.params as { owner?: string; repo?: string };
    if (!params.owner || !params.repo) throw new Error('@RepoAccess route without :owner/:repo');
    const { actor } = getAuthState(req);
    const context_ = await resolveRepoAccess(this.rpc, this.settings, actor, params.owner, params.repo, units);
    assertSubjectAccess(context_, marked.operation);
    const refuseArchived = this.reflector.getAllAndOverride<boolean>(NOT_ARCHIVED, [context.getHandler(), context.getClass()]);
    if (refuseArchived && context_.repo.archived) throw new DomainError(ErrorCode.LOCKED, 'repo is archived');
    (req as unknown as Record<symbol, RepoContext>)[RESOLVED] = context_;
    return true;
  }
}

/**
 * Resolves a repository for an actor, applying the two-factor repository policy (`twoFactorDeniesRepoAccess`: a 404,
 * as Gitea, whose message says how to enrol — decided before the lookup, so it is the same for every repository and
 * tells nothing about which exist). Shared by the API guard, the web pages and git over HTTP. With `units`, `access`
 * is the level on those units (the repository-wide one decides only whether the repository is found).
 */
export async function resolveRepoAccess(
  rpc: RpcClient,
  settings: GatewaySettings,
  actor: ActorDto | null,
  owner: string,
  repo: string,
  units?: RepoUnit | readonly RepoUnit[],
): Promise<RepoContext> {
  if (twoFactorDeniesRepoAccess(settings.twoFactorAuth, actor)) throw DomainError.notFound(twoFactorRequiredMessage());
  const reply = await rpc.send(RepoSubjects.accessResolve, { actor, owner, repo });
  if (reply.access === 'none') throw DomainError.notFound('not found');
  const context: RepoContext = { actor, repo: reply.repo, access: unitAccessLevel(reply, units) };
  // Several units whose levels differ: the service judges each issue by its own unit (issueUnitAccess).
  if (Array.isArray(units) && units.length > 1) {
    const levels: UnitAccess = Object.fromEntries(units.map((u: RepoUnit) => [u, unitAccessLevel(reply, u)]));
    if (new Set(Object.values(levels)).size > 1) context.units = levels;
  }
  return context;
}
