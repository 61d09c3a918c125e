import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  CreateOrgBody, CreateUserBody, EditUserBody, IdentitySubjects, ListQuery,
  type ActorDto, type OrganizationDto, type Paginated, type UserDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentActor, ScopeCategoryOf, SiteAdminOnly } from '../../auth/policy.decorators.js';
import { Paged } from '../../http/paged.js';

/** `/admin/users`: site administrators manage accounts. */
@Controller('admin/users')
@ScopeCategoryOf('admin')
@SiteAdminOnly()
export class AdminUsersController {
  constructor(private readonly rpc: RpcClient) {}

  /** `GET /admin/users` — every user account, whatever its visibility (Gitea's `adminSearchUsers`). */
  @Get()
  @Paged()
  list(
    @CurrentActor() actor: ActorDto,
    @Query() query: ListQuery,
  ): Promise<Paginated<UserDto>> {
    return this.rpc.send(IdentitySubjects.userSearch, { actor, query });
  }

  @Post()
  create(@CurrentActor() actor: ActorDto, @Body() body: CreateUserBody): Promise<UserDto> {
    return this.rpc.send(IdentitySubjects.userCreate, { actor, body });
  }

  @Patch(':username')
  edit(@CurrentActor() actor: ActorDto, @Param('username') username: string, @Body() body: EditUserBody) {
    return this.rpc.send(IdentitySubjects.userEdit, { actor, username, body: body ?? {} });
  }

  @Delete(':username')
  @HttpCode(204)
  async remove(@CurrentActor() actor: ActorDto, @Param('username') username: string): Promise<void> {
    await this.rpc.send(IdentitySubjects.userDelete, { actor, username });
  }

  /** `POST /admin/users/{username}/orgs` — an organization owned by `username` (Gitea's `adminCreateOrg`). */
  @Post(':username/orgs')
  createOrg(
    @CurrentActor() actor: ActorDto,
    @Param('username') username: string,
    @Body() body: CreateOrgBody,
  ): Promise<OrganizationDto> {
    return this.rpc.send(IdentitySubjects.orgCreate, { actor, username, body });
  }
}
