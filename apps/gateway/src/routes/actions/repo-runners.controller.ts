import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ListQuery, RepoOperations, RunnerLabelsBody, type ActionRunnerDto, type ActionRunnersResponseDto, type ActionsScopeDto,
  type RegistrationTokenDto, type RunnerLabelsDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf } from '../../auth/policy.decorators.js';
import { RunnerIdPipe } from '../../http/params.js';
import { RunnerRoutes } from './runner-routes.js';

const scopeOf = (ctx: RepoContext): ActionsScopeDto => ({ level: 'repo', repo: ctx.repo, access: ctx.access });

/** `/repos/{owner}/{repo}/actions/runners`: a repository's own runners; its owner (the owning user, the owning
 * organization's owners) and site admins only, as Gitea's `reqOwner`: repository admins 403. */
@Controller('repos/:owner/:repo/actions/runners')
@ScopeCategoryOf('repository')
@RepoAccess(RepoOperations.actions)
export class RepoRunnersController {
  private readonly runners: RunnerRoutes;

  constructor(rpc: RpcClient) {
    this.runners = new RunnerRoutes(rpc);
  }

  @Post('registration-token')
  @HttpCode(200)
  createRegistrationToken(@CurrentRepo() ctx: RepoContext): Promise<RegistrationTokenDto> {
    return this.runners.registrationToken(ctx.actor, scopeOf(ctx));
  }

  /** Deprecated in Gitea 1.24 (removed in 1.26): the same as the POST. */
  @Get('registration-token')
  getRegistrationToken(@CurrentRepo() ctx: RepoContext): Promise<RegistrationTokenDto> {
    return this.runners.registrationToken(ctx.actor, scopeOf(ctx));
  }

  /** Cairn's: a new token, the older ones deactivated (Gitea resets in its web UI only). */
  @Post('registration-token/reset')
  @HttpCode(200)
  resetRegistrationToken(@CurrentRepo() ctx: RepoContext): Promise<RegistrationTokenDto> {
    return this.runners.resetRegistrationToken(ctx.actor, scopeOf(ctx));
  }

  @Get()
  list(@CurrentRepo() ctx: RepoContext, @Query() query: ListQuery): Promise<ActionRunnersResponseDto> {
    return this.runners.list(ctx.actor, scopeOf(ctx), query);
  }

  @Get(':runner_id')
  get(@CurrentRepo() ctx: RepoContext, @Param('runner_id', RunnerIdPipe) id: number): Promise<ActionRunnerDto> {
    return this.runners.get(ctx.actor, scopeOf(ctx), id);
  }

  @Delete(':runner_id')
  @HttpCode(204)
  delete(@CurrentRepo() ctx: RepoContext, @Param('runner_id', RunnerIdPipe) id: number): Promise<void> {
    return this.runners.delete(ctx.actor, scopeOf(ctx), id);
  }

  @Get(':runner_id/labels')
  labels(@CurrentRepo() ctx: RepoContext, @Param('runner_id', RunnerIdPipe) id: number): Promise<RunnerLabelsDto> {
    return this.runners.labels(ctx.actor, scopeOf(ctx), id);
  }

  @Post(':runner_id/labels')
  @HttpCode(200)
  addLabels(@CurrentRepo() ctx: RepoContext, @Param('runner_id', RunnerIdPipe) id: number, @Body() body: RunnerLabelsBody): Promise<RunnerLabelsDto> {
    return this.runners.addLabels(ctx.actor, scopeOf(ctx), id, body);
  }

  @Put(':runner_id/labels')
  setLabels(@CurrentRepo() ctx: RepoContext, @Param('runner_id', RunnerIdPipe) id: number, @Body() body: RunnerLabelsBody): Promise<RunnerLabelsDto> {
    return this.runners.setLabels(ctx.actor, scopeOf(ctx), id, body);
  }

  @Delete(':runner_id/labels')
  clearLabels(@CurrentRepo() ctx: RepoContext, @Param('runner_id', RunnerIdPipe) id: number): Promise<RunnerLabelsDto> {
    return this.runners.clearLabels(ctx.actor, scopeOf(ctx), id);
  }

  @Delete(':runner_id/labels/:name')
  removeLabel(@CurrentRepo() ctx: RepoContext, @Param('runner_id', RunnerIdPipe) id: number, @Param('name') name: string): Promise<RunnerLabelsDto> {
    return this.runners.removeLabel(ctx.actor, scopeOf(ctx), id, name);
  }
}
