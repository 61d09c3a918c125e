import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ListQuery, RunnerLabelsBody, type ActionRunnerDto, type ActionRunnersResponseDto, type ActionsScopeDto, type ActorDto, 
  type RegistrationTokenDto, type RunnerLabelsDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentActor, ScopeCategoryOf, SiteAdminOnly } from '../../auth/policy.decorators.js';
import { RunnerIdPipe } from '../../http/params.js';
import { RunnerRoutes } from './runner-routes.js';

const SCOPE: ActionsScopeDto = { level: 'admin' };

/** `/admin/actions/runners`: every runner of the instance (site admins); the token is the instance's. */
@Controller('admin')
@ScopeCategoryOf('admin')
@SiteAdminOnly()
export class AdminRunnersController {
  private readonly runners: RunnerRoutes;

  constructor(rpc: RpcClient) {
    this.runners = new RunnerRoutes(rpc);
  }

  @Post('actions/runners/registration-token')
  @HttpCode(200)
  createRegistrationToken(@CurrentActor() actor: ActorDto): Promise<RegistrationTokenDto> {
    return this.runners.registrationToken(actor, SCOPE);
  }

  /** Deprecated in Gitea 1.24 (removed in 1.26): the same as the POST. */
  @Get('runners/registration-token')
  getRegistrationToken(@CurrentActor() actor: ActorDto): Promise<RegistrationTokenDto> {
    return this.runners.registrationToken(actor, SCOPE);
  }

  /** Cairn's: a new token, the older ones deactivated (Gitea resets in its web UI only). */
  @Post('actions/runners/registration-token/reset')
  @HttpCode(200)
  resetRegistrationToken(@CurrentActor() actor: ActorDto): Promise<RegistrationTokenDto> {
    return this.runners.resetRegistrationToken(actor, SCOPE);
  }

  @Get('actions/runners')
  list(@CurrentActor() actor: ActorDto, @Query() query: ListQuery): Promise<ActionRunnersResponseDto> {
    return this.runners.list(actor, SCOPE, query);
  }

  @Get('actions/runners/:runner_id')
  get(@CurrentActor() actor: ActorDto, @Param('runner_id', RunnerIdPipe) id: number): Promise<ActionRunnerDto> {
    return this.runners.get(actor, SCOPE, id);
  }

  @Delete('actions/runners/:runner_id')
  @HttpCode(204)
  delete(@CurrentActor() actor: ActorDto, @Param('runner_id', RunnerIdPipe) id: number): Promise<void> {
    return this.runners.delete(actor, SCOPE, id);
  }

  @Get('actions/runners/:runner_id/labels')
  labels(@CurrentActor() actor: ActorDto, @Param('runner_id', RunnerIdPipe) id: number): Promise<RunnerLabelsDto> {
    return this.runners.labels(actor, SCOPE, id);
  }

  @Post('actions/runners/:runner_id/labels')
  @HttpCode(200)
  addLabels(@CurrentActor() actor: ActorDto, @Param('runner_id', RunnerIdPipe) id: number, @Body() body: RunnerLabelsBody): Promise<RunnerLabelsDto> {
    return this.runners.addLabels(actor, SCOPE, id, body);
  }

  @Put('actions/runners/:runner_id/labels')
  setLabels(@CurrentActor() actor: ActorDto, @Param('runner_id', RunnerIdPipe) id: number, @Body() body: RunnerLabelsBody): Promise<RunnerLabelsDto> {
    return this.runners.setLabels(actor, SCOPE, id, body);
  }

  @Delete('actions/runners/:runner_id/labels')
  clearLabels(@CurrentActor() actor: ActorDto, @Param('runner_id', RunnerIdPipe) id: number): Promise<RunnerLabelsDto> {
    return this.runners.clearLabels(actor, SCOPE, id);
  }

  @Delete('actions/runners/:runner_id/labels/:name')
  removeLabel(@CurrentActor() actor: ActorDto, @Param('runner_id', RunnerIdPipe) id: number, @Param('name') name: string): Promise<RunnerLabelsDto> {
    return this.runners.removeLabel(actor, SCOPE, id, name);
  }
}
