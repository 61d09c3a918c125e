import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ListQuery, RunnerLabelsBody, type ActionRunnerDto, type ActionRunnersResponseDto, type ActionsScopeDto, type ActorDto, 
  type RegistrationTokenDto, type RunnerLabelsDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentActor, ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { RunnerIdPipe } from '../../http/params.js';
import { RunnerRoutes } from './runner-routes.js';

const scopeOf = (org: string): ActionsScopeDto => ({ level: 'org', org });

/** `/orgs/{org}/actions/runners`: an organization's runners (not its repositories'); its owners and site admins only. */
@Controller('orgs/:org/actions/runners')
@ScopeCategoryOf('organization')
@SignInRequired()
export class OrgRunnersController {
  private readonly runners: RunnerRoutes;

  constructor(rpc: RpcClient) {
    this.runners = new RunnerRoutes(rpc);
  }

  @Post('registration-token')
  @HttpCode(200)
  createRegistrationToken(@CurrentActor() actor: ActorDto, @Param('org') org: string): Promise<RegistrationTokenDto> {
    return this.runners.registrationToken(actor, scopeOf(org));
  }

  /** Deprecated in Gitea 1.24 (removed in 1.26): the same as the POST. */
  @Get('registration-token')
  getRegistrationToken(@CurrentActor() actor: ActorDto, @Param('org') org: string): Promise<RegistrationTokenDto> {
    return this.runners.registrationToken(actor, scopeOf(org));
  }

  /** Cairn's: a new token, the older ones deactivated (Gitea resets in its web UI only). */
  @Post('registration-token/reset')
  @HttpCode(200)
  resetRegistrationToken(@CurrentActor() actor: ActorDto, @Param('org') org: string): Promise<RegistrationTokenDto> {
    return this.runners.resetRegistrationToken(actor, scopeOf(org));
  }

  @Get()
  list(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Query() query: ListQuery): Promise<ActionRunnersResponseDto> {
    return this.runners.list(actor, scopeOf(org), query);
  }

  @Get(':runner_id')
  get(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Param('runner_id', RunnerIdPipe) id: number): Promise<ActionRunnerDto> {
    return this.runners.get(actor, scopeOf(org), id);
  }

  @Delete(':runner_id')
  @HttpCode(204)
  delete(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Param('runner_id', RunnerIdPipe) id: number): Promise<void> {
    return this.runners.delete(actor, scopeOf(org), id);
  }

  @Get(':runner_id/labels')
  labels(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Param('runner_id', RunnerIdPipe) id: number): Promise<RunnerLabelsDto> {
    return this.runners.labels(actor, scopeOf(org), id);
  }

  @Post(':runner_id/labels')
  @HttpCode(200)
  addLabels(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Param('runner_id', RunnerIdPipe) id: number, @Body() body: RunnerLabelsBody): Promise<RunnerLabelsDto> {
    return this.runners.addLabels(actor, scopeOf(org), id, body);
  }

  @Put(':runner_id/labels')
  setLabels(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Param('runner_id', RunnerIdPipe) id: number, @Body() body: RunnerLabelsBody): Promise<RunnerLabelsDto> {
    return this.runners.setLabels(actor, scopeOf(org), id, body);
  }

  @Delete(':runner_id/labels')
  clearLabels(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Param('runner_id', RunnerIdPipe) id: number): Promise<RunnerLabelsDto> {
    return this.runners.clearLabels(actor, scopeOf(org), id);
  }

  @Delete(':runner_id/labels/:name')
  removeLabel(@CurrentActor() actor: ActorDto, @Param('org') org: string, @Param('runner_id', RunnerIdPipe) id: number, @Param('name') name: string): Promise<RunnerLabelsDto> {
    return this.runners.removeLabel(actor, scopeOf(org), id, name);
  }
}
