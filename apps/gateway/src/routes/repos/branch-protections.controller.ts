import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  CreateBranchProtectionBody, EditBranchProtectionBody, RepoSubjects, type BranchProtectionDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';

/**
 * `/repos/{owner}/{repo}/branch_protections` (Gitea: signed-in repository admins only). A rule's name may hold `/`
 * (`release/*`), so it is the rest of the path, as Gitea routes it.
 */
@Controller('repos/:owner/:repo/branch_protections')
@ScopeCategoryOf('repository')
@SignInRequired()
export class BranchProtectionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @RepoAccess(RepoSubjects.branchProtectionList)
  list(@CurrentRepo() ctx: RepoContext): Promise<BranchProtectionDto[]> {
    return this.rpc.send(RepoSubjects.branchProtectionList, ctx);
  }

  @Post()
  @RepoAccess(RepoSubjects.branchProtectionCreate)
  @HttpCode(201)
  create(@CurrentRepo() ctx: RepoContext, @Body() body: CreateBranchProtectionBody): Promise<BranchProtectionDto> {
    return this.rpc.send(RepoSubjects.branchProtectionCreate, { ...ctx, body: body ?? {} });
  }

  @Get('*')
  @RepoAccess(RepoSubjects.branchProtectionGet)
  get(@CurrentRepo() ctx: RepoContext, @Param('*') name: string): Promise<BranchProtectionDto> {
    return this.rpc.send(RepoSubjects.branchProtectionGet, { ...ctx, name: name ?? '' });
  }

  @Patch('*')
  @RepoAccess(RepoSubjects.branchProtectionEdit)
  edit(
    @CurrentRepo() ctx: RepoContext,
    @Param('*') name: string,
    @Body() body: EditBranchProtectionBody,
  ): Promise<BranchProtectionDto> {
    return this.rpc.send(RepoSubjects.branchProtectionEdit, { ...ctx, name: name ?? '', body: body ?? {} });
  }

  @Delete('*')
  @RepoAccess(RepoSubjects.branchProtectionDelete)
  @HttpCode(204)
  async remove(@CurrentRepo() ctx: RepoContext, @Param('*') name: string): Promise<void> {
    await this.rpc.send(RepoSubjects.branchProtectionDelete, { ...ctx, name: name ?? '' });
  }
}
