import { Injectable } from '@nestjs/common';
import {
  DomainError, ErrorCode, IdentitySubjects, RepoOperations, assertSubjectAccess, type ActionsScopeDto, type ActorDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';

/** A scope resolved to Gitea's (owner_id, repo_id) pair: never both non-zero (see prisma/runners/schema.prisma). */
export interface ScopeKey {
  ownerId: number;
  repoId: number;
}

// Who may manage a scope's Actions data, as Gitea's route guards (rechecked: messages can come from anywhere): site
// admins; a user itself; org owners (`reqOrgOwnership`: members 403); a repository at REPO_ACCESS_NEEDS'
// `RepoOperations.actions` level (its owner, Gitea's `reqOwner`: repo admins 403).
@Injectable()
export class ActionsScopeResolver {
  constructor(private readonly rpc: RpcClient) {}

  async resolve(actor: ActorDto | null, scope: ActionsScopeDto): Promise<ScopeKey> {
    if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
    switch (scope.level) {
      case 'admin':
        if (!actor.isAdmin) throw DomainError.forbidden('user should be the site admin');
        return { ownerId: 0, repoId: 0 };
      case 'user':
        return { ownerId: actor.id, repoId: 0 };
      case 'repo':
        if (!scope.repo || !scope.access) throw DomainError.invalid('repository scope without repository');
        if (!actor.isAdmin) assertSubjectAccess({ actor, access: scope.access }, RepoOperations.actions);
        return { ownerId: 0, repoId: scope.repo.id };
      case 'org': {
        if (!scope.org) throw DomainError.invalid('organization scope without organization');
        const owner = await this.rpc.send(IdentitySubjects.ownerResolve, { name: scope.org });
        if (owner.kind !== 'organization') throw DomainError.notFound('organization does not exist');
        if (!actor.isAdmin) {
          const m = await this.rpc.send(IdentitySubjects.orgMembership, { orgId: owner.id, userId: actor.id });
          if (!m.isOwner) {
            if (!m.isMember && owner.visibility !== 'public') throw DomainError.notFound('organization does not exist');
            throw DomainError.forbidden('Must be an organization owner');
          }
        }
        return { ownerId: owner.id, repoId: 0 };
      }
      default:
        throw DomainError.invalid('unknown actions scope');
    }
  }
}
