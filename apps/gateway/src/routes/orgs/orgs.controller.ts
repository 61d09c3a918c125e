import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  CreateOrgBody, CreateTeamBody, DomainError, EditOrgBody, EditTeamBody, IdentitySubjects, ListQuery, RepoSubjects,
  type ActorDto, type OrganizationDto, type OrganizationPermissionsDto, type Paginated, type RepositoryDto, type TeamDto,
  type UserDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentActor, ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { PositiveIntPipe } from '../../http/params.js';
import { Paged } from '../../http/paged.js';

/** Organizations, their teams, members and member publicity (Gitea's `routers/api/v1/org`). */
@Controller()
@ScopeCategoryOf('organization')
export class OrgsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('users/:username/orgs/:org/permissions')
  @SignInRequired()
  userPermissions(
    @CurrentActor() actor: ActorDto,
    @Param('username') username: string,
    @Param('org') org: string,
  ): Promise<OrganizationPermissionsDto> {
    return this.rpc.send(IdentitySubjects.orgUserPermissions, { actor, org, username });
  }

  @Post('orgs')
  @SignInRequired()
  create(@CurrentActor() actor: ActorDto, @Body() body: CreateOrgBody): Promise<OrganizationDto> {
    return this.rpc.send(IdentitySubjects.orgCreate, { actor, body });
  }

  @Get('orgs')
  @Paged()
  list(
    @CurrentActor() actor: ActorDto | null,
    @Query() query: ListQuery,
  ): Promise<Paginated<OrganizationDto>> {
    return this.rpc.send(IdentitySubjects.orgList, { actor, query });
  }

  @Get('orgs/:org')
  get(@CurrentActor() actor: ActorDto | null, @Param('org') org: string): Promise<OrganizationDto> {
    return this.rpc.send(IdentitySubjects.orgGet, { actor, org });
  }

  @Patch('orgs/:org')
  @SignInRequired()
  edit(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Body() body: EditOrgBody): Promise<OrganizationDto> {
    return this.rpc.send(IdentitySubjects.orgEdit, { actor, org, body });
  }

  @Delete('orgs/:org')
  @SignInRequired()
  @HttpCode(204)
  async delete(@CurrentActor() actor: ActorDto, @Param('org') org: string): Promise<void> {
    await this.rpc.send(IdentitySubjects.orgDelete, { actor, org });
  }

  @Get('orgs/:org/teams')
  @SignInRequired()
  @Paged()
  teams(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Query() query: ListQuery,
  ): Promise<Paginated<TeamDto>> {
    return this.rpc.send(IdentitySubjects.teamList, { actor, org, query });
  }

  @Post('orgs/:org/teams')
  @SignInRequired()
  createTeam(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Body() body: CreateTeamBody) {
    return this.rpc.send(IdentitySubjects.teamCreate, { actor, org, body });
  }

  @Get('teams/:id')
  @SignInRequired()
  team(@CurrentActor() actor: ActorDto, @Param('id', PositiveIntPipe) teamId: number): Promise<TeamDto> {
    return this.rpc.send(IdentitySubjects.teamGet, { actor, teamId });
  }

  @Patch('teams/:id')
  @SignInRequired()
  editTeam(
    @CurrentActor() actor: ActorDto,
    @Param('id', PositiveIntPipe) teamId: number,
    @Body() body: EditTeamBody,
  ): Promise<TeamDto> {
    return this.rpc.send(IdentitySubjects.teamEdit, { actor, teamId, body });
  }

  @Delete('teams/:id')
  @SignInRequired()
  @HttpCode(204)
  async deleteTeam(@CurrentActor() actor: ActorDto, @Param('id', PositiveIntPipe) teamId: number): Promise<void> {
    await this.rpc.send(IdentitySubjects.teamDelete, { actor, teamId });
  }

  @Get('teams/:id/members/:username')
  @SignInRequired()
  teamMember(
    @CurrentActor() actor: ActorDto,
    @Param('id', PositiveIntPipe) teamId: number,
    @Param('username') username: string,
  ): Promise<UserDto> {
    return this.rpc.send(IdentitySubjects.teamMemberGet, { actor, teamId, username });
  }

  @Get('teams/:id/members')
  @SignInRequired()
  @Paged()
  teamMembers(
    @CurrentActor() actor: ActorDto,
    @Param('id', PositiveIntPipe) teamId: number,
    @Query() query: ListQuery,
  ): Promise<Paginated<UserDto>> {
    return this.rpc.send(IdentitySubjects.teamMemberList, { actor, teamId, query });
  }

  @Put('teams/:id/members/:username')
  @SignInRequired()
  @HttpCode(204)
  async addTeamMember(
    @CurrentActor() actor: ActorDto,
    @Param('id', PositiveIntPipe) teamId: number,
    @Param('username') username: string,
  ): Promise<void> {
    await this.rpc.send(IdentitySubjects.teamMemberAdd, { actor, teamId, username });
  }

  @Delete('teams/:id/members/:username')
  @SignInRequired()
  @HttpCode(204)
  async removeTeamMember(
    @CurrentActor() actor: ActorDto,
    @Param('id', PositiveIntPipe) teamId: number,
    @Param('username') username: string,
  ): Promise<void> {
    await this.rpc.send(IdentitySubjects.teamMemberRemove, { actor, teamId, username });
  }

  @Get('teams/:id/repos')
  @SignInRequired()
  @Paged()
  teamRepos(
    @CurrentActor() actor: ActorDto,
    @Param('id', PositiveIntPipe) teamId: number,
    @Query() query: ListQuery,
  ): Promise<Paginated<RepositoryDto>> {
    return this.rpc.send(RepoSubjects.teamRepoList, { actor, teamId, query });
  }

  @Get('teams/:id/repos/:org/:repo')
  @SignInRequired()
  teamRepo(
    @CurrentActor() actor: ActorDto,
    @Param('id', PositiveIntPipe) teamId: number,
    @Param('org') org: string,
    @Param('repo') repo: string,
  ): Promise<RepositoryDto> {
    return this.rpc.send(RepoSubjects.teamRepoGet, { actor, teamId, org, repo });
  }

  @Put('teams/:id/repos/:org/:repo')
  @SignInRequired()
  @HttpCode(204)
  async addTeamRepo(
    @CurrentActor() actor: ActorDto,
    @Param('id', PositiveIntPipe) teamId: number,
    @Param('org') org: string,
    @Param('repo') repo: string,
  ): Promise<void> {
    await this.rpc.send(RepoSubjects.teamRepoAdd, { actor, teamId, org, repo });
  }

  @Delete('teams/:id/repos/:org/:repo')
  @SignInRequired()
  @HttpCode(204)
  async removeTeamRepo(
    @CurrentActor() actor: ActorDto,
    @Param('id', PositiveIntPipe) teamId: number,
    @Param('org') org: string,
    @Param('repo') repo: string,
  ): Promise<void> {
    await this.rpc.send(RepoSubjects.teamRepoRemove, { actor, teamId, org, repo });
  }

  @Get('orgs/:org/members')
  @Paged()
  members(
    @CurrentActor() actor: ActorDto | null,
    @Param('org') org: string,
    @Query() query: ListQuery,
  ): Promise<Paginated<UserDto>> {
    return this.rpc.send(IdentitySubjects.memberList, { actor, org, query });
  }

  @Get('orgs/:org/members/:username')
  @HttpCode(204)
  async isMember(
    @CurrentActor() actor: ActorDto | null,
    @Param('org') org: string,
    @Param('username') username: string,
  ): Promise<void> {
    const yes = await this.rpc.send(IdentitySubjects.memberCheck, { actor, org, username });
    if (!yes) throw DomainError.notFound(`user "${username}" is not a member of "${org}"`);
  }

  @Delete('orgs/:org/members/:username')
  @SignInRequired()
  @HttpCode(204)
  async removeMember(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Param('username') username: string,
  ): Promise<void> {
    await this.rpc.send(IdentitySubjects.memberRemove, { actor, org, username });
  }

  @Get('orgs/:org/public_members')
  @Paged()
  publicMembers(
    @CurrentActor() actor: ActorDto | null,
    @Param('org') org: string,
    @Query() query: ListQuery,
  ): Promise<Paginated<UserDto>> {
    return this.rpc.send(IdentitySubjects.publicMemberList, { actor, org, query });
  }

  @Get('orgs/:org/public_members/:username')
  @HttpCode(204)
  async isPublicMember(
    @CurrentActor() actor: ActorDto | null,
    @Param('org') org: string,
    @Param('username') username: string,
  ): Promise<void> {
    const yes = await this.rpc.send(IdentitySubjects.publicMemberCheck, { actor, org, username });
    if (!yes) throw DomainError.notFound(`user "${username}" is not a public member of "${org}"`);
  }

  @Put('orgs/:org/public_members/:username')
  @SignInRequired()
  @HttpCode(204)
  async publicize(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Param('username') username: string,
  ): Promise<void> {
    await this.rpc.send(IdentitySubjects.publicMemberSet, { actor, org, username, public: true });
  }

  @Delete('orgs/:org/public_members/:username')
  @SignInRequired()
  @HttpCode(204)
  async conceal(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Param('username') username: string,
  ): Promise<void> {
    await this.rpc.send(IdentitySubjects.publicMemberSet, { actor, org, username, public: false });
  }
}
