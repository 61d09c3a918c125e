import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import {
  CreateHookBody, EditHookBody, ListQuery, type ActorDto, type HookScopeDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CurrentActor, ScopeCategoryOf, SignInRequired, TwoFactorRequired,
} from '../../auth/policy.decorators.js';
import { PositiveIntPipe } from '../../http/params.js';
import { HookRoutes } from './hook-routes.js';

const OWN: HookScopeDto = { level: 'user' };

/**
 * `/user/hooks`: the caller's own hooks, for every repository they own (Gitea's `userListHooks` …). Their payloads
 * carry private repositories' data, so, as organization hooks, they need two-factor where it is enforced.
 */
@Controller('user/hooks')
@ScopeCategoryOf('user')
@SignInRequired()
@TwoFactorRequired()
export class UserHooksController {
  private readonly hooks: HookRoutes;

  constructor(rpc: RpcClient, @Inject(COMMON_SETTINGS) settings: CommonSettings) {
    this.hooks = new HookRoutes(rpc, settings.rootUrl);
  }

  @Get()
  list(
    @CurrentActor() actor: ActorDto,
    @Query() query: ListQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.hooks.list(actor, OWN, query, req, reply);
  }

  @Post()
  create(@CurrentActor() actor: ActorDto, @Body() body: CreateHookBody) {
    return this.hooks.create(actor, OWN, body);
  }

  @Get(':id')
  get(@CurrentActor() actor: ActorDto, @Param('id', PositiveIntPipe) id: number) {
    return this.hooks.get(actor, OWN, id);
  }

  @Patch(':id')
  edit(@CurrentActor() actor: ActorDto, @Param('id', PositiveIntPipe) id: number, @Body() body: EditHookBody) {
    return this.hooks.edit(actor, OWN, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  remove(@CurrentActor() actor: ActorDto, @Param('id', PositiveIntPipe) id: number) {
    return this.hooks.delete(actor, OWN, id);
  }
}
