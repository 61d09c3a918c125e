import {
  RunnersSubjects, type ActionVariableDto, type ActionsScopeDto, type ActorDto, type CreateOrUpdateSecretBody,
  type CreateVariableBody, type ListQuery, type Paginated, type SecretDto, type UpdateVariableBody,
} from '@cairn/contracts';
import type { RpcClient } from '@cairn/platform';
import type { FastifyReply } from 'fastify';

/** Same at user, organization and repository level; runners-service checks who may call. */
export class ActionsRoutes {
  constructor(private readonly rpc: RpcClient) {}

  variables(actor: ActorDto | null, scope: ActionsScopeDto, query: ListQuery): Promise<Paginated<ActionVariableDto>> {
    return this.rpc.send(RunnersSubjects.variableList, { actor, scope, query });
  }

  variable(actor: ActorDto | null, scope: ActionsScopeDto, name: string): Promise<ActionVariableDto> {
    return this.rpc.send(RunnersSubjects.variableGet, { actor, scope, name });
  }

  /** 201 with an empty body (Gitea 1.25). */
  async createVariable(actor: ActorDto | null, scope: ActionsScopeDto, name: string, body: CreateVariableBody): Promise<void> {
    await this.rpc.send(RunnersSubjects.variableCreate, { actor, scope, name, body });
  }

  async updateVariable(actor: ActorDto | null, scope: ActionsScopeDto, name: string, body: UpdateVariableBody): Promise<void> {
    await this.rpc.send(RunnersSubjects.variableUpdate, { actor, scope, name, body });
  }

  async deleteVariable(actor: ActorDto | null, scope: ActionsScopeDto, name: string): Promise<void> {
    await this.rpc.send(RunnersSubjects.variableDelete, { actor, scope, name });
  }

  secrets(actor: ActorDto | null, scope: ActionsScopeDto, query: ListQuery): Promise<Paginated<SecretDto>> {
    return this.rpc.send(RunnersSubjects.secretList, { actor, scope, query });
  }

  /** 201 when the secret was created, 204 when it replaced one; no body either way. */
  async putSecret(
    actor: ActorDto | null,
    scope: ActionsScopeDto,
    name: string,
    body: CreateOrUpdateSecretBody,
    reply: FastifyReply,
  ): Promise<void> {
    const { created } = await this.rpc.send(RunnersSubjects.secretPut, { actor, scope, name, body });
    void reply.status(created ? 201 : 204);
  }

  async deleteSecret(actor: ActorDto | null, scope: ActionsScopeDto, name: string): Promise<void> {
    await this.rpc.send(RunnersSubjects.secretDelete, { actor, scope, name });
  }
}
