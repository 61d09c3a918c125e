import {
  RunnersSubjects, type ActionRunnerDto, type ActionRunnersResponseDto, type ActionsScopeDto, type ActorDto,
  type ListQuery, type RegistrationTokenDto, type RunnerLabelsBody, type RunnerLabelsDto,
} from '@cairn/contracts';
import type { RpcClient } from '@cairn/platform';

/** Same at every level; runners-service checks who may call and which runners the level sees. */
export class RunnerRoutes {
  constructor(private readonly rpc: RpcClient) {}

  /** 200 `{"token": …}`: the active token of the scope, unchanged until reset (Gitea's POST and deprecated GET). */
  registrationToken(actor: ActorDto | null, scope: ActionsScopeDto): Promise<RegistrationTokenDto> {
    return this.rpc.send(RunnersSubjects.registrationToken, { actor, scope });
  }

  /** 200 `{"token": …}`: a new token; the older ones of the scope stop registering runners (Cairn's reset). */
  resetRegistrationToken(actor: ActorDto | null, scope: ActionsScopeDto): Promise<RegistrationTokenDto> {
    return this.rpc.send(RunnersSubjects.registrationToken, { actor, scope, reset: true });
  }

  list(actor: ActorDto | null, scope: ActionsScopeDto, query: ListQuery): Promise<ActionRunnersResponseDto> {
    return this.rpc.send(RunnersSubjects.runnerList, { actor, scope, query });
  }

  get(actor: ActorDto | null, scope: ActionsScopeDto, runnerId: number): Promise<ActionRunnerDto> {
    return this.rpc.send(RunnersSubjects.runnerGet, { actor, scope, runnerId });
  }

  async delete(actor: ActorDto | null, scope: ActionsScopeDto, runnerId: number): Promise<void> {
    await this.rpc.send(RunnersSubjects.runnerDelete, { actor, scope, runnerId });
  }

  labels(actor: ActorDto | null, scope: ActionsScopeDto, runnerId: number): Promise<RunnerLabelsDto> {
    return this.rpc.send(RunnersSubjects.runnerLabels, { actor, scope, runnerId });
  }

  addLabels(actor: ActorDto | null, scope: ActionsScopeDto, runnerId: number, body: RunnerLabelsBody): Promise<RunnerLabelsDto> {
    return this.rpc.send(RunnersSubjects.runnerLabelsAdd, { actor, scope, runnerId, body });
  }

  setLabels(actor: ActorDto | null, scope: ActionsScopeDto, runnerId: number, body: RunnerLabelsBody): Promise<RunnerLabelsDto> {
    return this.rpc.send(RunnersSubjects.runnerLabelsSet, { actor, scope, runnerId, body });
  }

  clearLabels(actor: ActorDto | null, scope: ActionsScopeDto, runnerId: number): Promise<RunnerLabelsDto> {
    return this.rpc.send(RunnersSubjects.runnerLabelsClear, { actor, scope, runnerId });
  }

  removeLabel(actor: ActorDto | null, scope: ActionsScopeDto, runnerId: number, name: string): Promise<RunnerLabelsDto> {
    return this.rpc.send(RunnersSubjects.runnerLabelRemove, { actor, scope, runnerId, name });
  }
}
