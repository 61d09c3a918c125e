import { Inject, Injectable } from '@nestjs/common';
import {
  placeholderUser,
  DomainError, ErrorCode, accessAtLeast, toPaging,
  type AddCollaboratorRequest, type CollaboratorRequest, type ListCollaboratorsRequest, type OwnerDto,
  type Paginated, type RepoCollaboratorPermissionDto, type UserDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { AccessService } from '../../foundation/access/access.service.js';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import { CollaboratorsRepository } from './collaborators.repository.js';


/** Repository collaborators (Gitea's `routers/api/v1/repo/collaborators.go`). */
@Injectable()
export class CollaboratorsService {
  constructor(
    private readonly collaborators: CollaboratorsRepository,
    private readonly identity: IdentityDirectory,
    private readonly access: AccessService,
    @Inject(COMMON_SETTINGS) private readonly settings: CommonSettings,
  ) {}

  async list(req: ListCollaboratorsRequest): Promise<Paginated<UserDto>> {
    const { rows, total } = await this.collaborators.list(req.repo.id, toPaging(req.query));
    const users = await this.identity.usersById(rows.map((r) => r.userId));
    return {
      items: rows.map(
        (r) => users.get(r.userId) ?? placeholderUser(r.userId, `user-${r.userId}`, this.settings.rootUrl),
      ),
      total,
    };
  }

  async isCollaborator(req: CollaboratorRequest): Promise<boolean> {
    const user = await this.user(req.username);
    return this.collaborators.exists(req.repo.id, user.id);
  }

  async add(req: AddCollaboratorRequest): Promise<void> {
    const user = await this.user(req.username);
    if (user.kind !== 'user') throw DomainError.unprocessable('an organization cannot be a collaborator');
    if (user.id === req.repo.ownerId) throw DomainError.unprocessable('the owner cannot be added as a collaborator');
    await this.collaborators.upsert(req.repo.id, user.id, req.body?.permission ?? 'write');
  }

  async remove(req: CollaboratorRequest): Promise<void> {
    const user = await this.user(req.username);
    await this.collaborators.remove(req.repo.id, user.id);
  }

  /** Site admins and repository admins may ask about anyone; others only about themselves (Gitea). */
  async permission(req: CollaboratorRequest): Promise<RepoCollaboratorPermissionDto> {
    const actor = req.actor;
    if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
    const self = actor.login.toLowerCase() === req.username.toLowerCase();
    if (!actor.isAdmin && !self && !accessAtLeast(req.access, 'admin')) {
      throw DomainError.forbidden(
        'Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own',
      );
    }
    const found = await this.identity.userWithRoleByLogin(req.username);
    if (!found) throw DomainError.notFound(`user "${req.username}" does not exist`);
    const { user } = found;
    const level = await this.access.accessById({ id: user.id, isAdmin: found.isSiteAdmin }, req.repo.id);
    return { permission: level, role_name: level, user };
  }

  private user(username: string): Promise<OwnerDto> {
    return this.identity.resolveOwner(username);
  }
}
