import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateRepositoryRequest, EditRepositoryRequest, ListRepositoriesRequest, RepoScopedRequest, RepoSubjects,
  SearchRepositoriesRequest,
  type Paginated, type RepositoryDto,
} from '@cairn/contracts';
import { RepositoriesService } from './repositories.service.js';

@Controller()
export class RepositoriesHandler {
  constructor(private readonly repositories: RepositoriesService) {}

  @MessagePattern(RepoSubjects.repositoryCreate)
  create(@Payload() req: CreateRepositoryRequest): Promise<RepositoryDto> {
    return this.repositories.create(req);
  }

  @MessagePattern(RepoSubjects.repositoryGet)
  get(@Payload() req: RepoScopedRequest): Promise<RepositoryDto> {
    return this.repositories.get(req);
  }

  @MessagePattern(RepoSubjects.repositoryEdit)
  edit(@Payload() req: EditRepositoryRequest): Promise<RepositoryDto> {
    return this.repositories.edit(req);
  }

  @MessagePattern(RepoSubjects.repositoryDelete)
  async delete(@Payload() req: RepoScopedRequest): Promise<null> {
    await this.repositories.delete(req);
    return null;
  }

  @MessagePattern(RepoSubjects.repositoryList)
  list(@Payload() req: ListRepositoriesRequest): Promise<Paginated<RepositoryDto>> {
    return this.repositories.list(req);
  }

  @MessagePattern(RepoSubjects.repositorySearch)
  search(@Payload() req: SearchRepositoriesRequest): Promise<Paginated<RepositoryDto>> {
    return this.repositories.search(req);
  }
}
