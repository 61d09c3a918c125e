import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import {
  CreateHookBody, EditHookBody, ListDeliveriesQuery, ListHooksQuery, type ActorDto, type HookScopeDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentActor, ScopeCategoryOf, SiteAdminOnly } from '../../auth/policy.decorators.js';
import { PositiveIntPipe } from '../../http/params.js';
import { HookRoutes } from './hook-routes.js';

const ADMIN: HookScopeDto = { level: 'admin' };

/** `/admin/hooks`: system hooks (every repository) and default hooks (copied into new repositories). */
@Controller('admin/hooks')
@ScopeCategoryOf('admin')
@SiteAdminOnly()
export class AdminHooksController {
  private readonly hooks: HookRoutes;

  constructor(rpc: RpcClient, @Inject(COMMON_SETTINGS) settings: CommonSettings) {
    this.hooks = new HookRoutes(rpc, settings.rootUrl);
  }

  @Get()
  list(
    @CurrentActor() actor: ActorDto,
    @Query() query: ListHooksQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.hooks.list(actor, ADMIN, query, req, reply);
  }

  @Post()
  create(@CurrentActor() actor: ActorDto, @Body() body: CreateHookBody) {
    return this.hooks.create(actor, ADMIN, body);
  }

  @Get(':id')
  get(@CurrentActor() actor: ActorDto, @Param('id', PositiveIntPipe) id: number) {
    return this.hooks.get(actor, ADMIN, id);
  }

  @Patch(':id')
  edit(@CurrentActor() actor: ActorDto, @Param('id', PositiveIntPipe) id: number, @Body() body: EditHookBody) {
    return this.hooks.edit(actor, ADMIN, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  remove(@CurrentActor() actor: ActorDto, @Param('id', PositiveIntPipe) id: number) {
    return this.hooks.delete(actor, ADMIN, id);
  }

  @Get(':id/deliveries')
  deliveries(
    @CurrentActor() actor: ActorDto,
    @Param('id', PositiveIntPipe) id: number,
    @Query() query: ListDeliveriesQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.hooks.deliveries(actor, ADMIN, id, query, req, reply);
  }

  @Get(':id/deliveries/:deliveryId')
  delivery(
    @CurrentActor() actor: ActorDto,
    @Param('id', PositiveIntPipe) id: number,
    @Param('deliveryId', PositiveIntPipe) deliveryId: number,
  ) {
    return this.hooks.delivery(actor, ADMIN, id, deliveryId);
  }

  @Post(':id/deliveries/:deliveryId/attempts')
  @HttpCode(202)
  redeliver(
    @CurrentActor() actor: ActorDto,
    @Param('id', PositiveIntPipe) id: number,
    @Param('deliveryId', PositiveIntPipe) deliveryId: number,
  ) {
    return this.hooks.redeliver(actor, ADMIN, id, deliveryId);
  }
}
