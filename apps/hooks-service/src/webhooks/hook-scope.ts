import { Injectable } from '@nestjs/common';
import {
  DomainError, ErrorCode, IdentitySubjects, RepoOperations, assertSubjectAccess, type ActorDto, type HookScopeDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import type { HookOwnerFilter } from './webhooks.repository.js';

export interface ResolvedScope extends HookOwnerFilter {
  level: 'admin' | 'org' | 'user' | 'repo';
}

// Rechecked here (messages can come from anywhere): admin hooks by site admins, a repository's at REPO_ACCESS_NEEDS'
// `RepoOperations.hooks` level (its admins) or by site admins, an org's by its owners, and every signed-in user's own
// (matched like an org's, by the event repository's owner).
@Injectable()
export class HookScopeResolver {
  constructor(private readonly rpc: RpcClient) {}

  async resolve(actor: ActorDto | null, scope: HookScopeDto): Promise<ResolvedScope> {
    switch (scope.level) {
      case 'admin':
        if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
        if (!actor.isAdmin) throw DomainError.forbidden('user should be the site admin');
        return { level: 'admin', repoId: 0, ownerId: 0 };
      case 'repo': {
        if (!scope.repo || !scope.access) throw DomainError.invalid('repository scope without repository');
        if (!actor?.isAdmin) assertSubjectAccess({ actor, access: scope.access }, RepoOperations.hooks);
        return { level: 'repo', repoId: scope.repo.id, ownerId: 0 };
      }
      case 'user':
        if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
        return { level: 'user', repoId: 0, ownerId: actor.id };
      case 'org': {
        if (!scope.org) throw DomainError.invalid('organization scope without organization');
        const owner = await this.rpc.send(IdentitySubjects.ownerResolve, { name: scope.org });
        if (owner.kind !== 'organization') throw DomainError.notFound('organization does not exist');
        if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
        if (!actor.isAdmin) {
          const m = await this.rpc.send(IdentitySubjects.orgMembership, {
            orgId: owner.id,
            userId: actor.id,
          });
          if (!m.isOwner) {
            if (!m.isMember && owner.visibility !== 'public') throw DomainError.notFound('organization does not exist');
            throw DomainError.forbidden('Must be an organization owner');
          }
        }
        return { level: 'org', repoId: 0, ownerId: owner.id };
      }
      default:
        throw DomainError.invalid('unknown hook scope');
    }
  }
}
