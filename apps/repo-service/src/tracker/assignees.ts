import { Injectable } from '@nestjs/common';
import {
  DomainError, accessAtLeast, type AssigneesFields, type RepoRefDto, type UserDto,
} from '@cairn/contracts';
import { AccessService } from '../access/access.service.js';
import { IdentityDirectory } from '../access/identity-directory.js';
import { CollaboratorsRepository } from '../collaborators/collaborators.repository.js';
import type { ViewScope } from './repo-views.js';
import { RepoViews } from './repo-views.js';

/** Who may be assigned to issues and pull requests: users with write access to the repository (Gitea's `CanBeAssigned`). */
@Injectable()
export class Assignees {
  constructor(
    private readonly identity: IdentityDirectory,
    private readonly access: AccessService,
    private readonly collaborators: CollaboratorsRepository,
    private readonly views: RepoViews,
  ) {}

  /**
   * The users `assignee`/`assignees` name, as ids: undefined when neither field is given or the actor lacks write
   * access (Gitea ignores them then); 422 for an unknown user or one without write access.
   */
  async resolve(scope: ViewScope, body: AssigneesFields | undefined): Promise<number[] | undefined> {
    if (!body || (body.assignee === undefined && body.assignees === undefined)) return undefined;
    if (!accessAtLeast(scope.access, 'write')) return undefined;
    const names = [body.assignee ?? '', ...(body.assignees ?? [])].map((n) => n.trim()).filter(Boolean);
    const seen = new Map<string, string>();
    for (const n of names) if (!seen.has(n.toLowerCase())) seen.set(n.toLowerCase(), n);
    const ids: number[] = [];
    for (const name of seen.values()) {
      const user = await this.identity.userByLogin(name);
      if (!user) throw DomainError.unprocessable(`user does not exist [name: ${name.slice(0, 100)}]`);
      const level = await this.access.accessById({ id: user.id, isAdmin: false }, scope.repo.id);
      if (!accessAtLeast(level, 'write')) {
        throw DomainError.unprocessable(`user ${user.login} does not have write access to the repository and cannot be assigned`);
      }
      ids.push(user.id);
    }
    return ids;
  }

  /**
   * `GET …/assignees`: the owner (a user) and the collaborators with write or admin access. Members of an owning
   * organization's teams are not listed yet (identity-service has no internal team-member query for this).
   */
  async assignable(repo: Pick<RepoRefDto, 'id' | 'ownerId'>): Promise<UserDto[]> {
    const row = (await this.views.repositoryCached(repo.id)).row;
    const ids = [
      ...(row.ownerKind === 'organization' ? [] : [repo.ownerId]),
      ...(await this.collaborators.userIdsWithModes(repo.id, ['write', 'admin'])),
    ];
    const users = await this.views.users(ids);
    return ids.map((id) => users.get(id)).filter((u): u is UserDto => !!u);
  }
}
