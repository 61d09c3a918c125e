import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  IdentitySubjects, ListQuery, SearchUsersQuery, CreateAccessTokenBody, ListKeysQuery, UserSettingsOptions,
  type AccessTokenDto, type ActorDto, type Paginated, type PublicKeyDto, type UserDto, type OrganizationDto,
  type UserSettingsDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import {
  PasswordRequired, CurrentActor, CurrentUser, ScopeCategoryOf, SignInRequired,
} from '../../auth/policy.decorators.js';
import { Paged } from '../../http/paged.js';

/** `/user` (the caller) and `/users/{username}` routes: profiles, access tokens, public keys, organizations. */
@Controller()
@ScopeCategoryOf('user')
export class UsersController {
  constructor(private readonly rpc: RpcClient) {}

  /** `GET /user` — answered from the authentication call itself: no second round trip. */
  @Get('user')
  @SignInRequired()
  me(@CurrentUser() user: UserDto): UserDto {
    return user;
  }

  @Get('user/settings')
  @SignInRequired()
  settings(@CurrentActor() actor: ActorDto): Promise<UserSettingsDto> {
    return this.rpc.send(IdentitySubjects.userSettingsGet, { actor });
  }

  @Patch('user/settings')
  @SignInRequired()
  updateSettings(@CurrentActor() actor: ActorDto, @Body() body: UserSettingsOptions): Promise<UserSettingsDto> {
    return this.rpc.send(IdentitySubjects.userSettingsUpdate, { actor, body });
  }

  @Get('users/search')
  @Paged('search')
  search(
    @CurrentActor() actor: ActorDto | null,
    @Query() query: SearchUsersQuery,
  ): Promise<Paginated<UserDto>> {
    return this.rpc.send(IdentitySubjects.userSearch, { actor, query });
  }

  @Get('users/:username')
  get(@CurrentActor() actor: ActorDto | null, @Param('username') username: string): Promise<UserDto> {
    return this.rpc.send(IdentitySubjects.userGet, { actor, username });
  }

  @Get('users/:username/tokens')
  @PasswordRequired()
  @Paged()
  listTokens(
    @CurrentActor() actor: ActorDto,
    @Param('username') username: string,
    @Query() query: ListQuery,
  ): Promise<Paginated<AccessTokenDto>> {
    return this.rpc.send(IdentitySubjects.tokenList, { actor, username, query });
  }

  @Post('users/:username/tokens')
  @PasswordRequired()
  createToken(
    @CurrentActor() actor: ActorDto,
    @Param('username') username: string,
    @Body() body: CreateAccessTokenBody,
  ): Promise<AccessTokenDto> {
    return this.rpc.send(IdentitySubjects.tokenCreate, { actor, username, body });
  }

  @Delete('users/:username/tokens/:token')
  @PasswordRequired()
  @HttpCode(204)
  async deleteToken(
    @CurrentActor() actor: ActorDto,
    @Param('username') username: string,
    @Param('token') token: string,
  ): Promise<void> {
    await this.rpc.send(IdentitySubjects.tokenDelete, { actor, username, token });
  }

  @Get('users/:username/keys')
  @Paged()
  userKeys(
    @CurrentActor() actor: ActorDto | null,
    @Param('username') username: string,
    @Query() query: ListKeysQuery,
  ): Promise<Paginated<PublicKeyDto>> {
    return this.rpc.send(IdentitySubjects.keyList, { actor, username, query });
  }

  @Get('users/:username/orgs')
  @Paged()
  userOrgs(
    @CurrentActor() actor: ActorDto | null,
    @Param('username') username: string,
    @Query() query: ListQuery,
  ): Promise<Paginated<OrganizationDto>> {
    return this.rpc.send(IdentitySubjects.orgList, { actor, username, query });
  }
}
