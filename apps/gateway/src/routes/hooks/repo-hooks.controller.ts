import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import {
  CreateHookBody, EditHookBody, HooksSubjects, HookTestQuery, ListDeliveriesQuery, ListQuery, RepoOperations, type HookScopeDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf } from '../../auth/policy.decorators.js';
import { PositiveIntPipe } from '../../http/params.js';
import { HookRoutes } from './hook-routes.js';

const scopeOf = (ctx: RepoContext): HookScopeDto => ({ level: 'repo', repo: ctx.repo, access: ctx.access });

/** `/repos/{owner}/{repo}/hooks`: repository hooks, their tests and deliveries (repository admins). */
@Controller('repos/:owner/:repo/hooks')
@ScopeCategoryOf('repository')
@RepoAccess(RepoOperations.hooks)
export class RepoHooksController {
  private readonly hooks: HookRoutes;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(COMMON_SETTINGS) settings: CommonSettings,
  ) {
    this.hooks = new HookRoutes(rpc, settings.rootUrl);
  }

  @Get()
  list(
    @CurrentRepo() ctx: RepoContext,
    @Query() query: ListQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.hooks.list(ctx.actor, scopeOf(ctx), query, req, reply);
  }

  @Post()
  create(@CurrentRepo() ctx: RepoContext, @Body() body: CreateHookBody) {
    return this.hooks.create(ctx.actor, scopeOf(ctx), body);
  }

  @Get(':id')
  get(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number) {
    return this.hooks.get(ctx.actor, scopeOf(ctx), id);
  }

  @Patch(':id')
  edit(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number, @Body() body: EditHookBody) {
    return this.hooks.edit(ctx.actor, scopeOf(ctx), id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  remove(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number) {
    return this.hooks.delete(ctx.actor, scopeOf(ctx), id);
  }

  /** Gitea's hook test: a push of the head commit of `ref` (default branch); 204. */
  @Post(':id/tests')
  @HttpCode(204)
  async test(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number, @Query() query: HookTestQuery) {
    await this.rpc.send(HooksSubjects.webhookTest, { actor: ctx.actor, scope: scopeOf(ctx), hookId: id, ref: query.ref });
  }

  @Get(':id/deliveries')
  deliveries(
    @CurrentRepo() ctx: RepoContext,
    @Param('id', PositiveIntPipe) id: number,
    @Query() query: ListDeliveriesQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.hooks.deliveries(ctx.actor, scopeOf(ctx), id, query, req, reply);
  }

  @Get(':id/deliveries/:deliveryId')
  delivery(
    @CurrentRepo() ctx: RepoContext,
    @Param('id', PositiveIntPipe) id: number,
    @Param('deliveryId', PositiveIntPipe) deliveryId: number,
  ) {
    return this.hooks.delivery(ctx.actor, scopeOf(ctx), id, deliveryId);
  }

  @Post(':id/deliveries/:deliveryId/attempts')
  @HttpCode(202)
  redeliver(
    @CurrentRepo() ctx: RepoContext,
    @Param('id', PositiveIntPipe) id: number,
    @Param('deliveryId', PositiveIntPipe) deliveryId: number,
  ) {
    return this.hooks.redeliver(ctx.actor, scopeOf(ctx), id, deliveryId);
  }
}
