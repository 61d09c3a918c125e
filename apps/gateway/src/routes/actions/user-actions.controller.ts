import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  CreateOrUpdateSecretBody, CreateVariableBody, ListQuery, UpdateVariableBody, type ActionVariableDto,
  type ActionsScopeDto, type ActorDto, type Paginated, type SecretDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import type { FastifyReply } from 'fastify';
import { CurrentActor, ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { AlsoAnswers } from '../../http/also-answers.js';
import { Paged } from '../../http/paged.js';
import { ActionsRoutes } from './actions-routes.js';

const SCOPE: ActionsScopeDto = { level: 'user' };

/** `/user/actions/{variables,secrets}`: the caller's own Actions variables and secrets (Gitea's user level). */
@Controller('user/actions')
@ScopeCategoryOf('user')
@SignInRequired()
export class UserActionsController {
  private readonly actions: ActionsRoutes;

  constructor(rpc: RpcClient) {
    this.actions = new ActionsRoutes(rpc);
  }

  @Get('variables')
  @Paged()
  variables(@CurrentActor() actor: ActorDto, @Query() query: ListQuery): Promise<Paginated<ActionVariableDto>> {
    return this.actions.variables(actor, SCOPE, query);
  }

  @Get('variables/:variablename')
  variable(@CurrentActor() actor: ActorDto, @Param('variablename') name: string): Promise<ActionVariableDto> {
    return this.actions.variable(actor, SCOPE, name);
  }

  @Post('variables/:variablename')
  @HttpCode(201)
  createVariable(@CurrentActor() actor: ActorDto, @Param('variablename') name: string, @Body() body: CreateVariableBody) {
    return this.actions.createVariable(actor, SCOPE, name, body);
  }

  @Put('variables/:variablename')
  @HttpCode(204)
  updateVariable(@CurrentActor() actor: ActorDto, @Param('variablename') name: string, @Body() body: UpdateVariableBody) {
    return this.actions.updateVariable(actor, SCOPE, name, body);
  }

  @Delete('variables/:variablename')
  @HttpCode(204)
  deleteVariable(@CurrentActor() actor: ActorDto, @Param('variablename') name: string) {
    return this.actions.deleteVariable(actor, SCOPE, name);
  }

  /** Cairn: Gitea routes it but documents no user-level secret list. */
  @Get('secrets')
  @Paged()
  secrets(@CurrentActor() actor: ActorDto, @Query() query: ListQuery): Promise<Paginated<SecretDto>> {
    return this.actions.secrets(actor, SCOPE, query);
  }

  /** 201 created, 204 replaced (the handler sets 204). */
  @Put('secrets/:secretname')
  @HttpCode(201)
  @AlsoAnswers(204)
  putSecret(
    @CurrentActor() actor: ActorDto,
    @Param('secretname') name: string,
    @Body() body: CreateOrUpdateSecretBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.actions.putSecret(actor, SCOPE, name, body, reply);
  }

  @Delete('secrets/:secretname')
  @HttpCode(204)
  deleteSecret(@CurrentActor() actor: ActorDto, @Param('secretname') name: string) {
    return this.actions.deleteSecret(actor, SCOPE, name);
  }
}
