import type { Paginated } from '../common/pagination.js';
import type { RpcPair } from '../rpc-contract.js';
import type { RunnersSubjects } from './runners.subjects.js';
import type {
  ActionVariableDto, SecretDto, SecretListRequest, SecretPutReply, SecretPutRequest, SecretRequest,
  VariableCreateRequest, VariableListRequest, VariableRequest, VariableUpdateRequest,
} from './variable.dto.js';
import type {
  ActionRunnerDto, ActionRunnersResponseDto, RegistrationTokenDto, RegistrationTokenRequest, RunnerLabelRemoveRequest,
  RunnerLabelsChangeRequest, RunnerLabelsDto, RunnerListRequest, RunnerRequest,
} from './runner.dto.js';

export interface RunnersRpc {
  [RunnersSubjects.variableList]: RpcPair<VariableListRequest, Paginated<ActionVariableDto>>;
  [RunnersSubjects.variableGet]: RpcPair<VariableRequest, ActionVariableDto>;
  [RunnersSubjects.variableCreate]: RpcPair<VariableCreateRequest, Record<string, never>>;
  [RunnersSubjects.variableUpdate]: RpcPair<VariableUpdateRequest, Record<string, never>>;
  [RunnersSubjects.variableDelete]: RpcPair<VariableRequest, Record<string, never>>;
  [RunnersSubjects.secretList]: RpcPair<SecretListRequest, Paginated<SecretDto>>;
  [RunnersSubjects.secretPut]: RpcPair<SecretPutRequest, SecretPutReply>;
  [RunnersSubjects.secretDelete]: RpcPair<SecretRequest, Record<string, never>>;
  [RunnersSubjects.registrationToken]: RpcPair<RegistrationTokenRequest, RegistrationTokenDto>;
  [RunnersSubjects.runnerList]: RpcPair<RunnerListRequest, ActionRunnersResponseDto>;
  [RunnersSubjects.runnerGet]: RpcPair<RunnerRequest, ActionRunnerDto>;
  [RunnersSubjects.runnerDelete]: RpcPair<RunnerRequest, Record<string, never>>;
  [RunnersSubjects.runnerLabels]: RpcPair<RunnerRequest, RunnerLabelsDto>;
  [RunnersSubjects.runnerLabelsAdd]: RpcPair<RunnerLabelsChangeRequest, RunnerLabelsDto>;
  [RunnersSubjects.runnerLabelsSet]: RpcPair<RunnerLabelsChangeRequest, RunnerLabelsDto>;
  [RunnersSubjects.runnerLabelsClear]: RpcPair<RunnerRequest, RunnerLabelsDto>;
  [RunnersSubjects.runnerLabelRemove]: RpcPair<RunnerLabelRemoveRequest, RunnerLabelsDto>;
}
