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

const scopeOf = (org: string): ActionsScopeDto => ({ level: 'org', org });

/**
 * `/orgs/{org}/actions/{variables,secrets}`: an organization's Actions variables and secrets. Its owners and site
 * admins only (Gitea's `reqOrgOwnership`, checked by runners-service): members get 403 even for reads.
 */
@Controller('orgs/:org/actions')
@ScopeCategoryOf('organization')
@SignInRequired()
export class OrgActionsController {
  private readonly actions: ActionsRoutes;

  constructor(rpc: RpcClient) {
    this.actions = new ActionsRoutes(rpc);
  }

  @Get('variables')
  @Paged()
  variables(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Query() query: ListQuery,
  ): Promise<Paginated<ActionVariableDto>> {
    return this.actions.variables(actor, scopeOf(org), query);
  }

  @Get('variables/:variablename')
  variable(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Param('variablename') name: string,
  ): Promise<ActionVariableDto> {
    return this.actions.variable(actor, scopeOf(org), name);
  }

  @Post('variables/:variablename')
  @HttpCode(201)
  createVariable(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Param('variablename') name: string,
    @Body() body: CreateVariableBody,
  ) {
    return this.actions.createVariable(actor, scopeOf(org), name, body);
  }

  @Put('variables/:variablename')
  @HttpCode(204)
  updateVariable(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Param('variablename') name: string,
    @Body() body: UpdateVariableBody,
  ) {
    return this.actions.updateVariable(actor, scopeOf(org), name, body);
  }

  @Delete('variables/:variablename')
  @HttpCode(204)
  deleteVariable(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Param('variablename') name: string) {
    return this.actions.deleteVariable(actor, scopeOf(org), name);
  }

  @Get('secrets')
  @Paged()
  secrets(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Query() query: ListQuery,
  ): Promise<Paginated<SecretDto>> {
    return this.actions.secrets(actor, scopeOf(org), query);
  }

  /** 201 created, 204 replaced (the handler sets 204). */
  @Put('secrets/:secretname')
  @HttpCode(201)
  @AlsoAnswers(204)
  putSecret(
    @CurrentActor() actor: ActorDto,
    @Param('org') org: string,
    @Param('secretname') name: string,
    @Body() body: CreateOrUpdateSecretBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.actions.putSecret(actor, scopeOf(org), name, body, reply);
  }

  @Delete('secrets/:secretname')
  @HttpCode(204)
  deleteSecret(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Param('secretname') name: string) {
    return this.actions.deleteSecret(actor, scopeOf(org), name);
  }
}
