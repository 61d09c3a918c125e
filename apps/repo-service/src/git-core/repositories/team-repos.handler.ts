import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  RepoSubjects, TeamRepositoriesRequest, TeamRepositoryRequest, type Paginated, type RepositoryDto,
} from '@cairn/contracts';
import { TeamReposService } from './team-repos.service.js';

@Controller()
export class TeamReposHandler {
  constructor(private readonly teamRepos: TeamReposService) {}

  @RpcHandler(RepoSubjects.teamRepoList)
  list(@Payload() req: TeamRepositoriesRequest): Promise<Paginated<RepositoryDto>> {
    return this.teamRepos.list(req);
  }

  @RpcHandler(RepoSubjects.teamRepoGet)
  get(@Payload() req: TeamRepositoryRequest): Promise<RepositoryDto> {
    return this.teamRepos.get(req);
  }

  @RpcHandler(RepoSubjects.teamRepoAdd)
  async add(@Payload() req: TeamRepositoryRequest): Promise<null> {
    await this.teamRepos.add(req);
    return null;
  }

  @RpcHandler(RepoSubjects.teamRepoRemove)
  async remove(@Payload() req: TeamRepositoryRequest): Promise<null> {
    await this.teamRepos.remove(req);
    return null;
  }
}
