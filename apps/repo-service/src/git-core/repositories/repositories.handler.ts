import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  CreateRepositoryRequest, EditRepositoryRequest, ForkRepositoryRequest, GetRepositoryByIdRequest, ListForksRequest, ListRepositoriesRequest, OwnedRepositoriesRequest, RepoScopedRequest,
  RepoSubjects, SearchRepositoriesRequest, TransferRepositoryRequest, VisibleRepositoriesRequest,
  type OwnedRepositoriesReply, type Paginated, type RepositoryDto, type RepositorySummaryDto,
} from '@cairn/contracts';
import { RepositoriesRepository } from './repositories.repository.js';
import { RepositoriesService } from './repositories.service.js';

@Controller()
export class RepositoriesHandler {
  constructor(
    private readonly repositories: RepositoriesService,
    private readonly rows: RepositoriesRepository,
  ) {}

  @RpcHandler(RepoSubjects.repositoryVisible)
  visible(@Payload() req: VisibleRepositoriesRequest): Promise<RepositoryDto[]> {
    return this.repositories.visible(req);
  }

  @RpcHandler(RepoSubjects.repositoryCreate)
  create(@Payload() req: CreateRepositoryRequest): Promise<RepositoryDto> {
    return this.repositories.create(req);
  }

  @RpcHandler(RepoSubjects.repositoryGet)
  get(@Payload() req: RepoScopedRequest): Promise<RepositoryDto> {
    return this.repositories.get(req);
  }

  @RpcHandler(RepoSubjects.repositorySummary)
  summary(@Payload() req: RepoScopedRequest): Promise<RepositorySummaryDto> {
    return this.repositories.summary(req);
  }

  @RpcHandler(RepoSubjects.repositoryGetById)
  getById(@Payload() req: GetRepositoryByIdRequest): Promise<RepositoryDto> {
    return this.repositories.getById(req);
  }

  @RpcHandler(RepoSubjects.repositoryFork)
  fork(@Payload() req: ForkRepositoryRequest): Promise<RepositoryDto> {
    return this.repositories.fork(req);
  }

  @RpcHandler(RepoSubjects.repositoryForks)
  forks(@Payload() req: ListForksRequest): Promise<Paginated<RepositoryDto>> {
    return this.repositories.forks(req);
  }

  @RpcHandler(RepoSubjects.repositoryEdit)
  edit(@Payload() req: EditRepositoryRequest): Promise<RepositoryDto> {
    return this.repositories.edit(req);
  }

  @RpcHandler(RepoSubjects.repositoryTransfer)
  transfer(@Payload() req: TransferRepositoryRequest): Promise<RepositoryDto> {
    return this.repositories.transfer(req);
  }

  @RpcHandler(RepoSubjects.repositoryDelete)
  async delete(@Payload() req: RepoScopedRequest): Promise<null> {
    await this.repositories.delete(req);
    return null;
  }

  @RpcHandler(RepoSubjects.repositoryList)
  list(@Payload() req: ListRepositoriesRequest): Promise<Paginated<RepositoryDto>> {
    return this.repositories.list(req);
  }

  @RpcHandler(RepoSubjects.repositorySearch)
  search(@Payload() req: SearchRepositoriesRequest): Promise<Paginated<RepositoryDto>> {
    return this.repositories.search(req);
  }

  @RpcHandler(RepoSubjects.repositoryOwnedCount)
  async ownedCount(@Payload() req: OwnedRepositoriesRequest): Promise<OwnedRepositoriesReply> {
    return { count: await this.rows.countByOwner(req.ownerId) };
  }
}
