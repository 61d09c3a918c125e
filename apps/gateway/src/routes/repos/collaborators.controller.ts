import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import {
  AddCollaboratorBody, DomainError, ListQuery, RepoSubjects,
  type Paginated, type RepoCollaboratorPermissionDto, type UserDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { Paged } from '../../http/paged.js';

/** `/repos/{owner}/{repo}/collaborators` (Gitea: signed-in; reading needs read access, changes repo admin). */
@Controller('repos/:owner/:repo/collaborators')
@ScopeCategoryOf('repository')
@SignInRequired()
export class CollaboratorsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @RepoAccess(RepoSubjects.collaboratorList)
  @Paged()
  list(
    @CurrentRepo() ctx: RepoContext,
    @Query() query: ListQuery,
  ): Promise<Paginated<UserDto>> {
    return this.rpc.send(RepoSubjects.collaboratorList, { ...ctx, query });
  }

  @Get(':username')
  @RepoAccess(RepoSubjects.collaboratorCheck)
  @HttpCode(204)
  async check(@CurrentRepo() ctx: RepoContext, @Param('username') username: string): Promise<void> {
    const yes = await this.rpc.send(RepoSubjects.collaboratorCheck, { ...ctx, username });
    if (!yes) throw DomainError.notFound(`user "${username}" is not a collaborator`);
  }

  @Put(':username')
  @RepoAccess(RepoSubjects.collaboratorAdd)
  @HttpCode(204)
  async add(
    @CurrentRepo() ctx: RepoContext,
    @Param('username') username: string,
    @Body() body: AddCollaboratorBody,
  ): Promise<void> {
    await this.rpc.send(RepoSubjects.collaboratorAdd, { ...ctx, username, body: body ?? {} });
  }

  @Delete(':username')
  @RepoAccess(RepoSubjects.collaboratorRemove)
  @HttpCode(204)
  async remove(@CurrentRepo() ctx: RepoContext, @Param('username') username: string): Promise<void> {
    await this.rpc.send(RepoSubjects.collaboratorRemove, { ...ctx, username });
  }

  @Get(':username/permission')
  @RepoAccess(RepoSubjects.collaboratorPermission)
  permission(@CurrentRepo() ctx: RepoContext, @Param('username') username: string): Promise<RepoCollaboratorPermissionDto> {
    return this.rpc.send(RepoSubjects.collaboratorPermission, { ...ctx, username });
  }
}
