import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  RunnersSubjects, VariableCreateRequest, VariableListRequest, VariableRequest, VariableUpdateRequest,
  type ActionVariableDto, type Paginated,
} from '@cairn/contracts';
import { VariablesService } from './variables.service.js';

@Controller()
export class VariablesHandler {
  constructor(private readonly variables: VariablesService) {}

  @RpcHandler(RunnersSubjects.variableList)
  list(@Payload() req: VariableListRequest): Promise<Paginated<ActionVariableDto>> {
    return this.variables.list(req.actor, req.scope, req.query);
  }

  @RpcHandler(RunnersSubjects.variableGet)
  get(@Payload() req: VariableRequest): Promise<ActionVariableDto> {
    return this.variables.get(req.actor, req.scope, req.name);
  }

  @RpcHandler(RunnersSubjects.variableCreate)
  async create(@Payload() req: VariableCreateRequest): Promise<Record<string, never>> {
    await this.variables.create(req.actor, req.scope, req.name, req.body);
    return {};
  }

  @RpcHandler(RunnersSubjects.variableUpdate)
  async update(@Payload() req: VariableUpdateRequest): Promise<Record<string, never>> {
    await this.variables.update(req.actor, req.scope, req.name, req.body);
    return {};
  }

  @RpcHandler(RunnersSubjects.variableDelete)
  async delete(@Payload() req: VariableRequest): Promise<Record<string, never>> {
    await this.variables.delete(req.actor, req.scope, req.name);
    return {};
  }
}
