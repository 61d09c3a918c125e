import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import {
  CreateHookBody, EditHookBody, ListDeliveriesQuery, ListQuery, type ActorDto, type HookScopeDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CurrentActor, ScopeCategoryOf, SignInRequired, TwoFactorRequired,
} from '../../auth/policy.decorators.js';
import { PositiveIntPipe } from '../../http/params.js';
import { HookRoutes } from './hook-routes.js';

const scopeOf = (org: string): HookScopeDto => ({ level: 'org', org });

/**
 * `/orgs/{org}/hooks`: organization hooks (every repository of the organization) and their deliveries (owners). Their
 * payloads carry private repositories' data, so an owner who must enrol in two-factor may not use them.
 */
@Controller('orgs/:org/hooks')
@ScopeCategoryOf('organization')
@SignInRequired()
@TwoFactorRequired()
export class OrgHooksController {
  private readonly hooks: HookRoutes;

  constructor(rpc: RpcClient, @Inject(COMMON_SETTINGS) settings: CommonSettings) {
    this.hooks = new HookRoutes(rpc, settings.rootUrl);
  }

  @Get()
  list(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Query() query: ListQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.hooks.list(actor, scopeOf(org), query, req, reply);
  }

  @Post()
  create(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Body() body: CreateHookBody) {
    return this.hooks.create(actor, scopeOf(org), body);
  }

  @Get(':id')
  get(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Param('id', PositiveIntPipe) id: number) {
    return this.hooks.get(actor, scopeOf(org), id);
  }

  @Patch(':id')
  edit(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Param('id', PositiveIntPipe) id: number,
    @Body() body: EditHookBody,
  ) {
    return this.hooks.edit(actor, scopeOf(org), id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  remove(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Param('id', PositiveIntPipe) id: number) {
    return this.hooks.delete(actor, scopeOf(org), id);
  }

  @Get(':id/deliveries')
  deliveries(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Param('id', PositiveIntPipe) id: number,
    @Query() query: ListDeliveriesQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.hooks.deliveries(actor, scopeOf(org), id, query, req, reply);
  }

  @Get(':id/deliveries/:deliveryId')
  delivery(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Param('id', PositiveIntPipe) id: number,
    @Param('deliveryId', PositiveIntPipe) deliveryId: number,
  ) {
    return this.hooks.delivery(actor, scopeOf(org), id, deliveryId);
  }

  @Post(':id/deliveries/:deliveryId/attempts')
  @HttpCode(202)
  redeliver(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Param('id', PositiveIntPipe) id: number,
    @Param('deliveryId', PositiveIntPipe) deliveryId: number,
  ) {
    return this.hooks.redeliver(actor, scopeOf(org), id, deliveryId);
  }
}
