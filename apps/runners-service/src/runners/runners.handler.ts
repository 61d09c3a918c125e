import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  RegistrationTokenRequest, RunnerLabelRemoveRequest, RunnerLabelsChangeRequest, RunnerListRequest, RunnerRequest,
  RunnersSubjects, type ActionRunnerDto, type ActionRunnersResponseDto, type RegistrationTokenDto, type RunnerLabelsDto,
} from '@cairn/contracts';
import { RegistrationTokensService } from './registration-tokens.service.js';
import { RunnersService } from './runners.service.js';

@Controller()
export class RunnersHandler {
  constructor(
    private readonly runners: RunnersService,
    private readonly tokens: RegistrationTokensService,
  ) {}

  @RpcHandler(RunnersSubjects.registrationToken)
  registrationToken(@Payload() req: RegistrationTokenRequest): Promise<RegistrationTokenDto> {
    return this.tokens.get(req.actor, req.scope, req.reset ?? false);
  }

  @RpcHandler(RunnersSubjects.runnerList)
  list(@Payload() req: RunnerListRequest): Promise<ActionRunnersResponseDto> {
    return this.runners.list(req.actor, req.scope, req.query);
  }

  @RpcHandler(RunnersSubjects.runnerGet)
  get(@Payload() req: RunnerRequest): Promise<ActionRunnerDto> {
    return this.runners.get(req.actor, req.scope, req.runnerId);
  }

  @RpcHandler(RunnersSubjects.runnerDelete)
  async delete(@Payload() req: RunnerRequest): Promise<Record<string, never>> {
    await this.runners.delete(req.actor, req.scope, req.runnerId);
    return {};
  }

  @RpcHandler(RunnersSubjects.runnerLabels)
  labels(@Payload() req: RunnerRequest): Promise<RunnerLabelsDto> {
    return this.runners.labels(req.actor, req.scope, req.runnerId);
  }

  @RpcHandler(RunnersSubjects.runnerLabelsAdd)
  addLabels(@Payload() req: RunnerLabelsChangeRequest): Promise<RunnerLabelsDto> {
    return this.runners.addLabels(req.actor, req.scope, req.runnerId, req.body.labels);
  }

  @RpcHandler(RunnersSubjects.runnerLabelsSet)
  setLabels(@Payload() req: RunnerLabelsChangeRequest): Promise<RunnerLabelsDto> {
    return this.runners.setLabels(req.actor, req.scope, req.runnerId, req.body.labels);
  }

  @RpcHandler(RunnersSubjects.runnerLabelsClear)
  clearLabels(@Payload() req: RunnerRequest): Promise<RunnerLabelsDto> {
    return this.runners.clearLabels(req.actor, req.scope, req.runnerId);
  }

  @RpcHandler(RunnersSubjects.runnerLabelRemove)
  removeLabel(@Payload() req: RunnerLabelRemoveRequest): Promise<RunnerLabelsDto> {
    return this.runners.removeLabel(req.actor, req.scope, req.runnerId, req.name);
  }
}
