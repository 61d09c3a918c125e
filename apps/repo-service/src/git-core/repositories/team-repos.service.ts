import { Injectable } from '@nestjs/common';
import {
  DomainError, accessAtLeast, toPaging,
  type Paginated, type RepoAccessReply, type RepositoryDto, type TeamDto, type TeamRepositoriesRequest,
  type TeamRepositoryRequest,
} from '@cairn/contracts';
import { AccessService } from '../../foundation/access/access.service.js';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import { RepositoriesRepository } from './repositories.repository.js';
import { RepositoriesService } from './repositories.service.js';

const ADMIN_REQUIRED = 'Must have admin-level access to the repository';

/** Teams live in identity-service, which decides who sees one; the grants live here, beside the repositories. */
@Injectable()
export class TeamReposService {
  constructor(
    private readonly identity: IdentityDirectory,
    private readonly access: AccessService,
    private readonly repositories: RepositoriesRepository,
    private readonly rendering: RepositoriesService,
  ) {}

  async list(req: TeamRepositoriesRequest): Promise<Paginated<RepositoryDto>> {
    const team = await this.identity.team(req.actor, req.teamId);
    return this.rendering.teamRepositories(
      req.actor,
      { id: team.id, orgId: this.orgOf(team).id, includesAll: team.includes_all_repositories },
      toPaging(req.query ?? {}),
    );
  }

  async get(req: TeamRepositoryRequest): Promise<RepositoryDto> {
    const { team, target } = await this.resolve(req);
    if (!team.includes_all_repositories && !(await this.repositories.teamHas(team.id, target.repo.id))) {
      throw DomainError.notFound(`repository "${req.org}/${req.repo}" is not a repository of team ${team.id}`);
    }
    return this.rendering.get({ actor: req.actor, repo: target.repo, access: target.access });
  }

  async add(req: TeamRepositoryRequest): Promise<void> {
    const { team, target } = await this.resolve(req);
    if (!accessAtLeast(target.access, 'admin')) throw DomainError.forbidden(ADMIN_REQUIRED);
    await this.repositories.grantTeam(this.orgOf(team).id, team.id, target.repo.id);
  }

  async remove(req: TeamRepositoryRequest): Promise<void> {
    const { team, target } = await this.resolve(req);
    if (!accessAtLeast(target.access, 'admin')) throw DomainError.forbidden(ADMIN_REQUIRED);
    await this.repositories.revokeTeam(team.id, target.repo.id);
  }

  /** The repository must belong to the team's organization (Gitea ignores `{org}`; Cairn: 404 for another owner). */
  private async resolve(req: TeamRepositoryRequest): Promise<{ team: TeamDto; target: RepoAccessReply }> {
    const team = await this.identity.team(req.actor, req.teamId);
    const org = this.orgOf(team);
    if (org.name.toLowerCase() !== req.org.toLowerCase()) {
      throw DomainError.notFound(`repository "${req.org}/${req.repo}" is not in the organization of team ${team.id}`);
    }
    return { team, target: await this.access.resolve(req.actor, org.name, req.repo) };
  }

  private orgOf(team: TeamDto): { id: number; name: string } {
    if (!team.organization) throw DomainError.notFound(`team ${team.id} does not exist`);
    return team.organization;
  }
}
