import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  CreateLabelBody, EditLabelBody, LabelSubjects, ListQuery,
  type ActorDto, type LabelDto, type Paginated,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentActor, ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { Paged } from '../../http/paged.js';
import { PositiveIntPipe } from '../../http/params.js';

/**
 * `/orgs/{org}/labels…` (Gitea's `routers/api/v1/org/label.go`, token scope `organization`): labels every repository
 * of the organization may use. repo-service decides who sees the organization and who owns it.
 */
@Controller('orgs/:org/labels')
@ScopeCategoryOf('organization')
export class OrgLabelsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @Paged()
  list(@CurrentActor() actor: ActorDto | null, @Param('org') org: string, @Query() query: ListQuery): Promise<Paginated<LabelDto>> {
    return this.rpc.send(LabelSubjects.orgList, { actor, org, query });
  }

  @Post()
  @SignInRequired()
  create(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Body() body: CreateLabelBody): Promise<LabelDto> {
    return this.rpc.send(LabelSubjects.orgCreate, { actor, org, body });
  }

  @Get(':id')
  get(@CurrentActor() actor: ActorDto | null, @Param('org') org: string, @Param('id', PositiveIntPipe) id: number): Promise<LabelDto> {
    return this.rpc.send(LabelSubjects.orgGet, { actor, org, id });
  }

  @Patch(':id')
  @SignInRequired()
  edit(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Param('id', PositiveIntPipe) id: number,
    @Body() body: EditLabelBody,
  ): Promise<LabelDto> {
    return this.rpc.send(LabelSubjects.orgEdit, { actor, org, id, body: body ?? {} });
  }

  @Delete(':id')
  @SignInRequired()
  @HttpCode(204)
  async delete(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Param('id', PositiveIntPipe) id: number): Promise<void> {
    await this.rpc.send(LabelSubjects.orgDelete, { actor, org, id });
  }
}
