import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  CreateKeyBody, IdentitySubjects, ListKeysQuery, ListQuery,
  type ActorDto, type OrganizationDto, type Paginated, type PublicKeyDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentActor, ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { PositiveIntPipe } from '../../http/params.js';
import { Paged } from '../../http/paged.js';

/** The caller's own public keys and organizations (`/user/keys`, `/user/orgs`). */
@Controller('user')
@ScopeCategoryOf('user')
@SignInRequired()
export class OwnKeysController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('keys')
  @Paged()
  list(
    @CurrentActor() actor: ActorDto,
    @Query() query: ListKeysQuery,
  ): Promise<Paginated<PublicKeyDto>> {
    return this.rpc.send(IdentitySubjects.keyList, { actor, query });
  }

  @Post('keys')
  create(@CurrentActor() actor: ActorDto, @Body() body: CreateKeyBody): Promise<PublicKeyDto> {
    return this.rpc.send(IdentitySubjects.keyCreate, { actor, body });
  }

  @Get('keys/:id')
  get(@CurrentActor() actor: ActorDto, @Param('id', PositiveIntPipe) id: number): Promise<PublicKeyDto> {
    return this.rpc.send(IdentitySubjects.keyGet, { actor, id });
  }

  @Delete('keys/:id')
  @HttpCode(204)
  async remove(@CurrentActor() actor: ActorDto, @Param('id', PositiveIntPipe) id: number): Promise<void> {
    await this.rpc.send(IdentitySubjects.keyDelete, { actor, id });
  }

  @Get('orgs')
  @ScopeCategoryOf('organization')
  @Paged()
  orgs(
    @CurrentActor() actor: ActorDto,
    @Query() query: ListQuery,
  ): Promise<Paginated<OrganizationDto>> {
    return this.rpc.send(IdentitySubjects.orgList, {
      actor,
      username: actor.login,
      query,
    });
  }
}
