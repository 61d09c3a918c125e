import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import {
  CreateForkBody, CreateRepoBody, DomainError, EditRepoBody, ListQuery, RepoSubjects, SearchReposQuery, TransferRepoBody,
  twoFactorDeniesRepoAccess,
  twoFactorRequiredMessage, type ActorDto, type ListRepositoriesRequest, type Paginated, type RepositoryDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { CurrentActor, ScopeCategoryOf, SignInRequired, SiteAdminOnly } from '../../auth/policy.decorators.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../../config/gateway-settings.js';
import { Paged } from '../../http/paged.js';
import { PositiveIntPipe } from '../../http/params.js';

/** Repositories: create, get, edit, delete, lists and search (Gitea's `routers/api/v1/repo/repo.go`). */
@Controller()
@ScopeCategoryOf('repository')
export class ReposController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  private list(query: ListQuery, message: Omit<ListRepositoriesRequest, 'query'>): Promise<Paginated<RepositoryDto>> {
    return this.rpc.send(RepoSubjects.repositoryList, { ...message, query });
  }

  @Post('user/repos')
  @SignInRequired()
  create(@CurrentActor() actor: ActorDto, @Body() body: CreateRepoBody): Promise<RepositoryDto> {
    return this.rpc.send(RepoSubjects.repositoryCreate, { actor, target: 'self', body });
  }

  // `/org/{org}/repos` is Gitea's deprecated spelling (createOrgRepoDeprecated).
  @Post(['orgs/:org/repos', 'org/:org/repos'])
  @SignInRequired()
  // It makes a repository in an organization: a token needs both write:organization and write:repository.
  @ScopeCategoryOf('organization', 'repository')
  createInOrg(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Body() body: CreateRepoBody) {
    return this.rpc.send(RepoSubjects.repositoryCreate, { actor, target: 'org', owner: org, body });
  }

  @Post('admin/users/:username/repos')
  @SiteAdminOnly()
  @ScopeCategoryOf('admin')
  createForUser(@CurrentActor() actor: ActorDto, @Param('username') username: string, @Body() body: CreateRepoBody) {
    return this.rpc.send(RepoSubjects.repositoryCreate, { actor, target: 'user', owner: username, body });
  }

  @Get('user/repos')
  @SignInRequired()
  @Paged()
  mine(
    @CurrentActor() actor: ActorDto,
    @Query() query: ListQuery,
  ): Promise<Paginated<RepositoryDto>> {
    return this.list(query, { actor });
  }

  @Get('users/:username/repos')
  @Paged()
  ofUser(
    @CurrentActor() actor: ActorDto | null,
    @Param('username') username: string,
    @Query() query: ListQuery,
  ): Promise<Paginated<RepositoryDto>> {
    return this.list(query, { actor, owner: username });
  }

  @Get('orgs/:org/repos')
  @ScopeCategoryOf('organization')
  @Paged()
  ofOrg(
    @CurrentActor() actor: ActorDto | null,
    @Param('org') org: string,
    @Query() query: ListQuery,
  ): Promise<Paginated<RepositoryDto>> {
    return this.list(query, { actor, owner: org, ownerKind: 'organization' });
  }

  @Get('repos/search')
  @Paged('search')
  search(
    @CurrentActor() actor: ActorDto | null,
    @Query() query: SearchReposQuery,
  ): Promise<Paginated<RepositoryDto>> {
    return this.rpc.send(RepoSubjects.repositorySearch, { actor, query });
  }

  /** Like `GET /repos/{owner}/{repo}`: the same two-factor policy, and 404 for what the caller may not see. */
  @Get('repositories/:id')
  getById(
    @CurrentActor() actor: ActorDto | null,
    @Param('id', PositiveIntPipe) id: number,
  ): Promise<RepositoryDto> {
    if (twoFactorDeniesRepoAccess(this.settings.twoFactorAuth, actor)) {
      throw DomainError.notFound(twoFactorRequiredMessage());
    }
    return this.rpc.send(RepoSubjects.repositoryGetById, { actor, id });
  }

  @Get('repos/:owner/:repo')
  @RepoAccess(RepoSubjects.repositoryGet)
  get(@CurrentRepo() ctx: RepoContext): Promise<RepositoryDto> {
    return this.rpc.send(RepoSubjects.repositoryGet, ctx);
  }

  /** Gitea answers 202 (its fork is complete when it answers; the status is historical). */
  @Post('repos/:owner/:repo/forks')
  @RepoAccess(RepoSubjects.repositoryFork)
  @SignInRequired()
  @HttpCode(202)
  fork(@CurrentRepo() ctx: RepoContext, @Body() body: CreateForkBody): Promise<RepositoryDto> {
    return this.rpc.send(RepoSubjects.repositoryFork, { ...ctx, body: body ?? {} });
  }

  @Get('repos/:owner/:repo/forks')
  @RepoAccess(RepoSubjects.repositoryForks)
  @Paged()
  forks(@CurrentRepo() ctx: RepoContext, @Query() query: ListQuery): Promise<Paginated<RepositoryDto>> {
    return this.rpc.send(RepoSubjects.repositoryForks, { ...ctx, query });
  }

  @Patch('repos/:owner/:repo')
  @RepoAccess(RepoSubjects.repositoryEdit)
  edit(@CurrentRepo() ctx: RepoContext, @Body() body: EditRepoBody): Promise<RepositoryDto> {
    return this.rpc.send(RepoSubjects.repositoryEdit, { ...ctx, body: body ?? {} });
  }

  /** Gitea's direct transfer (202 with the moved repository); who may move it where is repo-service's rule. */
  @Post('repos/:owner/:repo/transfer')
  @RepoAccess(RepoSubjects.repositoryTransfer)
  @SignInRequired()
  @HttpCode(202)
  transfer(@CurrentRepo() ctx: RepoContext, @Body() body: TransferRepoBody): Promise<RepositoryDto> {
    return this.rpc.send(RepoSubjects.repositoryTransfer, { ...ctx, body });
  }

  @Delete('repos/:owner/:repo')
  @RepoAccess(RepoSubjects.repositoryDelete)
  @HttpCode(204)
  async remove(@CurrentRepo() ctx: RepoContext): Promise<void> {
    await this.rpc.send(RepoSubjects.repositoryDelete, ctx);
  }
}
