import { Injectable } from '@nestjs/common';
import {
  DomainError, toPaging, type ActionVariableDto, type ActionsScopeDto, type ActorDto, type CreateVariableBody,
  type ListQuery, type Paginated, type UpdateVariableBody,
} from '@cairn/contracts';
import { ActionsScopeResolver } from '../actions/actions-scope.js';
import { ACTIONS_DATA_MAX, actionsName, cutDescription, lookupName, storableText } from '../actions/actions-names.js';
import type { Variable } from '../generated/prisma/client.js';
import { VariablesRepository } from './variables.repository.js';
import { uniqueViolation } from '@cairn/platform';

/** Gitea's `NormalizeStringEOL`: CRLF and lone CR become LF. */
const normalizeEol = (s: string) => s.replace(/\r\n?/g, '\n');

/** A value within Gitea's limit (65,536 characters, counted after the line endings were normalised). */
function variableData(value: string): string {
  const data = normalizeEol(storableText(value, 'value'));
  if ([...data].length > ACTIONS_DATA_MAX) {
    throw DomainError.invalid(`data too long: a variable's value is at most ${ACTIONS_DATA_MAX} characters`);
  }
  return data;
}

const toDto = (v: Variable): ActionVariableDto => ({
  owner_id: v.ownerId,
  repo_id: v.repoId,
  name: v.name,
  data: v.data,
  description: v.description,
});

@Injectable()
export class VariablesService {
  constructor(
    private readonly variables: VariablesRepository,
    private readonly scopes: ActionsScopeResolver,
  ) {}

  async list(actor: ActorDto | null, scope: ActionsScopeDto, query?: ListQuery): Promise<Paginated<ActionVariableDto>> {
    const key = await this.scopes.resolve(actor, scope);
    const { skip, take } = toPaging(query);
    const { rows, total } = await this.variables.page(key, skip, take);
    return { items: rows.map(toDto), total };
  }

  async get(actor: ActorDto | null, scope: ActionsScopeDto, name: string): Promise<ActionVariableDto> {
    return toDto(await this.find(await this.scopes.resolve(actor, scope), name));
  }

  async create(actor: ActorDto | null, scope: ActionsScopeDto, name: string, body: CreateVariableBody): Promise<void> {
    const key = await this.scopes.resolve(actor, scope);
    const stored = actionsName('variable', name);
    const data = variableData(body.value);
    try {
      await this.variables.create(key, { name: stored, data, description: cutDescription(body.description) });
    } catch (err) {
      if (uniqueViolation(err) !== null) throw DomainError.alreadyExists(`variable name ${name} already exists`);
      throw err;
    }
  }

  /** Changes the value and description (Gitea replaces both) and renames with a non-empty `body.name`. */
  async update(actor: ActorDto | null, scope: ActionsScopeDto, name: string, body: UpdateVariableBody): Promise<void> {
    const key = await this.scopes.resolve(actor, scope);
    const current = await this.find(key, name);
    const newName = body.name ? body.name : name;
    const stored = actionsName('variable', newName);
    const data = variableData(body.value);
    try {
      await this.variables.update(current.id, { name: stored, data, description: cutDescription(body.description) });
    } catch (err) {
      if (uniqueViolation(err) !== null) throw DomainError.alreadyExists(`variable name ${newName} already exists`);
      if ((err as { code?: string }).code === 'P2025') throw DomainError.notFound('variable not found');
      throw err;
    }
  }

  async delete(actor: ActorDto | null, scope: ActionsScopeDto, name: string): Promise<void> {
    const key = await this.scopes.resolve(actor, scope);
    const stored = lookupName(name);
    if (!stored || !(await this.variables.delete(key, stored))) throw DomainError.notFound('variable not found');
  }

  private async find(key: { ownerId: number; repoId: number }, name: string): Promise<Variable> {
    const stored = lookupName(name);
    const row = stored && (await this.variables.find(key, stored));
    if (!row) throw DomainError.notFound('variable not found');
    return row;
  }
}
