import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  CreateOrUpdateSecretBody, CreateVariableBody, ListQuery, RepoOperations, UpdateVariableBody, type ActionVariableDto,
  type ActionsScopeDto, type Paginated, type SecretDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import type { FastifyReply } from 'fastify';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf } from '../../auth/policy.decorators.js';
import { AlsoAnswers } from '../../http/also-answers.js';
import { Paged } from '../../http/paged.js';
import { ActionsRoutes } from './actions-routes.js';

const scopeOf = (ctx: RepoContext): ActionsScopeDto => ({ level: 'repo', repo: ctx.repo, access: ctx.access });

/**
 * `/repos/{owner}/{repo}/actions/{variables,secrets}`: a repository's Actions variables and secrets. Only its owner
 * (the owning user, the owning organization's owners) and site admins, as Gitea's `reqOwner`: repository admins 403.
 */
@Controller('repos/:owner/:repo/actions')
@ScopeCategoryOf('repository')
@RepoAccess(RepoOperations.actions)
export class RepoActionsController {
  private readonly actions: ActionsRoutes;

  constructor(rpc: RpcClient) {
    this.actions = new ActionsRoutes(rpc);
  }

  @Get('variables')
  @Paged()
  variables(@CurrentRepo() ctx: RepoContext, @Query() query: ListQuery): Promise<Paginated<ActionVariableDto>> {
    return this.actions.variables(ctx.actor, scopeOf(ctx), query);
  }

  @Get('variables/:variablename')
  variable(@CurrentRepo() ctx: RepoContext, @Param('variablename') name: string): Promise<ActionVariableDto> {
    return this.actions.variable(ctx.actor, scopeOf(ctx), name);
  }

  @Post('variables/:variablename')
  @HttpCode(201)
  createVariable(@CurrentRepo() ctx: RepoContext, @Param('variablename') name: string, @Body() body: CreateVariableBody) {
    return this.actions.createVariable(ctx.actor, scopeOf(ctx), name, body);
  }

  @Put('variables/:variablename')
  @HttpCode(204)
  updateVariable(@CurrentRepo() ctx: RepoContext, @Param('variablename') name: string, @Body() body: UpdateVariableBody) {
    return this.actions.updateVariable(ctx.actor, scopeOf(ctx), name, body);
  }

  @Delete('variables/:variablename')
  @HttpCode(204)
  deleteVariable(@CurrentRepo() ctx: RepoContext, @Param('variablename') name: string) {
    return this.actions.deleteVariable(ctx.actor, scopeOf(ctx), name);
  }

  @Get('secrets')
  @Paged()
  secrets(@CurrentRepo() ctx: RepoContext, @Query() query: ListQuery): Promise<Paginated<SecretDto>> {
    return this.actions.secrets(ctx.actor, scopeOf(ctx), query);
  }

  /** 201 created, 204 replaced (the handler sets 204). */
  @Put('secrets/:secretname')
  @HttpCode(201)
  @AlsoAnswers(204)
  putSecret(
    @CurrentRepo() ctx: RepoContext,
    @Param('secretname') name: string,
    @Body() body: CreateOrUpdateSecretBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.actions.putSecret(ctx.actor, scopeOf(ctx), name, body, reply);
  }

  @Delete('secrets/:secretname')
  @HttpCode(204)
  deleteSecret(@CurrentRepo() ctx: RepoContext, @Param('secretname') name: string) {
    return this.actions.deleteSecret(ctx.actor, scopeOf(ctx), name);
  }
}
