import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  CreateKeyBody, ListDeployKeysQuery, RepoSubjects,
  type DeployKeyDto, type Paginated,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { PositiveIntPipe } from '../../http/params.js';
import { Paged } from '../../http/paged.js';

/** `/repos/{owner}/{repo}/keys`: deploy keys (Gitea: signed in, repository admin). */
@Controller('repos/:owner/:repo/keys')
@ScopeCategoryOf('repository')
@SignInRequired()
export class DeployKeysController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @RepoAccess(RepoSubjects.deployKeyList)
  @Paged()
  list(@CurrentRepo() ctx: RepoContext, @Query() query: ListDeployKeysQuery): Promise<Paginated<DeployKeyDto>> {
    return this.rpc.send(RepoSubjects.deployKeyList, { ...ctx, query });
  }

  @Post()
  @RepoAccess(RepoSubjects.deployKeyCreate)
  create(@CurrentRepo() ctx: RepoContext, @Body() body: CreateKeyBody): Promise<DeployKeyDto> {
    return this.rpc.send(RepoSubjects.deployKeyCreate, { ...ctx, body });
  }

  @Get(':id')
  @RepoAccess(RepoSubjects.deployKeyGet)
  get(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number): Promise<DeployKeyDto> {
    return this.rpc.send(RepoSubjects.deployKeyGet, { ...ctx, id });
  }

  @Delete(':id')
  @RepoAccess(RepoSubjects.deployKeyDelete)
  @HttpCode(204)
  async remove(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number): Promise<void> {
    await this.rpc.send(RepoSubjects.deployKeyDelete, { ...ctx, id });
  }
}
