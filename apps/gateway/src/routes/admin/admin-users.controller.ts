import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  AdminSearchUsersQuery, CreateKeyBody, CreateOrgBody, CreateUserBody, EditUserBody, IdentitySubjects,
  type ActorDto, type OrganizationDto, type Paginated, type PublicKeyDto, type UserDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentActor, ScopeCategoryOf, SiteAdminOnly } from '../../auth/policy.decorators.js';
import { PositiveIntPipe } from '../../http/params.js';
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
    @Query() query: AdminSearchUsersQuery,
  ): Promise<Paginated<UserDto>> {
    return this.rpc.send(IdentitySubjects.userAdminSearch, { actor, query });
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

  /** `POST /admin/users/{username}/keys` — an SSH key for `username` (Gitea's `adminCreatePublicKey`). */
  @Post(':username/keys')
  createKey(
    @CurrentActor() actor: ActorDto,
    @Param('username') username: string,
    @Body() body: CreateKeyBody,
  ): Promise<PublicKeyDto> {
    return this.rpc.send(IdentitySubjects.keyCreate, { actor, username, body });
  }

  /** `DELETE /admin/users/{username}/keys/{id}` — one of `username`'s keys (Gitea's `adminDeleteUserPublicKey`). */
  @Delete(':username/keys/:id')
  @HttpCode(204)
  async removeKey(
    @CurrentActor() actor: ActorDto,
    @Param('username') username: string,
    @Param('id', PositiveIntPipe) id: number,
  ): Promise<void> {
    await this.rpc.send(IdentitySubjects.keyDelete, { actor, username, id });
  }
}
