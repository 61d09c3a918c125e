import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  CreateMilestoneBody, EditMilestoneBody, ListMilestonesQuery, MilestoneSubjects,
  type MilestoneDto, type Paginated,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { Paged } from '../../http/paged.js';

/**
 * `/repos/{owner}/{repo}/milestones…` (Gitea's `routers/api/v1/repo/milestone.go`, token scope `issue`). `{id}` is a
 * milestone id or, failing that, its title, as in Gitea.
 */
@Controller('repos/:owner/:repo/milestones')
@ScopeCategoryOf('issue')
export class MilestonesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @RepoAccess(MilestoneSubjects.list)
  @Paged()
  list(@CurrentRepo() ctx: RepoContext, @Query() query: ListMilestonesQuery): Promise<Paginated<MilestoneDto>> {
    return this.rpc.send(MilestoneSubjects.list, { ...ctx, query });
  }

  @Post()
  @SignInRequired()
  @RepoAccess(MilestoneSubjects.create)
  create(@CurrentRepo() ctx: RepoContext, @Body() body: CreateMilestoneBody): Promise<MilestoneDto> {
    return this.rpc.send(MilestoneSubjects.create, { ...ctx, body });
  }

  @Get(':id')
  @RepoAccess(MilestoneSubjects.get)
  get(@CurrentRepo() ctx: RepoContext, @Param('id') id: string): Promise<MilestoneDto> {
    return this.rpc.send(MilestoneSubjects.get, { ...ctx, id });
  }

  @Patch(':id')
  @SignInRequired()
  @RepoAccess(MilestoneSubjects.edit)
  edit(@CurrentRepo() ctx: RepoContext, @Param('id') id: string, @Body() body: EditMilestoneBody): Promise<MilestoneDto> {
    return this.rpc.send(MilestoneSubjects.edit, { ...ctx, id, body: body ?? {} });
  }

  @Delete(':id')
  @SignInRequired()
  @RepoAccess(MilestoneSubjects.delete)
  @HttpCode(204)
  async delete(@CurrentRepo() ctx: RepoContext, @Param('id') id: string): Promise<void> {
    await this.rpc.send(MilestoneSubjects.delete, { ...ctx, id });
  }
}
