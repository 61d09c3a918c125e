import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  CreateLabelBody, EditLabelBody, IssueLabelsBody, LabelSubjects, ListQuery,
  type LabelDto, type Paginated,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { Paged } from '../../http/paged.js';
import { PositiveIntPipe } from '../../http/params.js';

/** `/repos/{owner}/{repo}/labels…` (Gitea's `routers/api/v1/repo/label.go`, token scope `issue`). */
@Controller('repos/:owner/:repo/labels')
@ScopeCategoryOf('issue')
export class RepoLabelsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @RepoAccess(LabelSubjects.list)
  @Paged()
  list(@CurrentRepo() ctx: RepoContext, @Query() query: ListQuery): Promise<Paginated<LabelDto>> {
    return this.rpc.send(LabelSubjects.list, { ...ctx, query });
  }

  @Post()
  @SignInRequired()
  @RepoAccess(LabelSubjects.create)
  create(@CurrentRepo() ctx: RepoContext, @Body() body: CreateLabelBody): Promise<LabelDto> {
    return this.rpc.send(LabelSubjects.create, { ...ctx, body });
  }

  @Get(':id')
  @RepoAccess(LabelSubjects.get)
  get(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number): Promise<LabelDto> {
    return this.rpc.send(LabelSubjects.get, { ...ctx, id });
  }

  @Patch(':id')
  @SignInRequired()
  @RepoAccess(LabelSubjects.edit)
  edit(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number, @Body() body: EditLabelBody): Promise<LabelDto> {
    return this.rpc.send(LabelSubjects.edit, { ...ctx, id, body: body ?? {} });
  }

  @Delete(':id')
  @SignInRequired()
  @RepoAccess(LabelSubjects.delete)
  @HttpCode(204)
  async delete(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number): Promise<void> {
    await this.rpc.send(LabelSubjects.delete, { ...ctx, id });
  }
}

/**
 * `/repos/{owner}/{repo}/issues/{index}/labels…` (Gitea's `routers/api/v1/repo/issue_label.go`): reading needs read
 * access; changing needs write access (403 for readers, as Gitea's `CanWriteIssuesOrPulls`).
 */
@Controller('repos/:owner/:repo/issues/:index/labels')
@ScopeCategoryOf('issue')
export class IssueLabelsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @RepoAccess(LabelSubjects.issueList)
  list(@CurrentRepo() ctx: RepoContext, @Param('index', PositiveIntPipe) index: number): Promise<LabelDto[]> {
    return this.rpc.send(LabelSubjects.issueList, { ...ctx, index });
  }

  @Post()
  @SignInRequired()
  @RepoAccess(LabelSubjects.issueAdd)
  @HttpCode(200)
  add(@CurrentRepo() ctx: RepoContext, @Param('index', PositiveIntPipe) index: number, @Body() body: IssueLabelsBody): Promise<LabelDto[]> {
    return this.rpc.send(LabelSubjects.issueAdd, { ...ctx, index, body });
  }

  @Put()
  @SignInRequired()
  @RepoAccess(LabelSubjects.issueReplace)
  replace(@CurrentRepo() ctx: RepoContext, @Param('index', PositiveIntPipe) index: number, @Body() body: IssueLabelsBody): Promise<LabelDto[]> {
    return this.rpc.send(LabelSubjects.issueReplace, { ...ctx, index, body });
  }

  @Delete()
  @SignInRequired()
  @RepoAccess(LabelSubjects.issueClear)
  @HttpCode(204)
  async clear(@CurrentRepo() ctx: RepoContext, @Param('index', PositiveIntPipe) index: number): Promise<void> {
    await this.rpc.send(LabelSubjects.issueClear, { ...ctx, index });
  }

  @Delete(':id')
  @SignInRequired()
  @RepoAccess(LabelSubjects.issueRemove)
  @HttpCode(204)
  async remove(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Param('id', PositiveIntPipe) id: number,
  ): Promise<void> {
    await this.rpc.send(LabelSubjects.issueRemove, { ...ctx, index, id });
  }
}
